/**
 * team-review.jsonl, beside memory.jsonl: the user's answers about teammates' items, one line per
 * answer — `{"ts","uid","sha","action":"accept"|"drop","author"}`. A side file like inbox.jsonl (its
 * own lock, whole fsynced lines, 0600; side-file.ts), read whole, broken lines skipped. An
 * acceptance holds for one uid AND one text (its sha-256): a teammate who later changes an accepted
 * item's text is asked again. A drop holds for the uid, whatever its text becomes.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { realDir } from '../../util/paths';
import { sweepLockLeftovers } from '../log/lock';
import { SideFile, type SideFileOptions } from '../side-file';

export type TeamStatus = 'accepted' | 'dropped' | 'pending' | 'changed';
export type TeamAction = 'accept' | 'drop';

export function teamReviewPath(memoryPath: string): string {
  return join(dirname(memoryPath), 'team-review.jsonl');
}

/** The key an acceptance holds for. */
function contentSha(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

interface Parsed {
  accepted: Map<string, Set<string>>;
  dropped: Set<string>;
}

function parse(text: string): Parsed {
  const out: Parsed = { accepted: new Map(), dropped: new Set() };
  for (const raw of text.split('\n')) {
    if (!raw.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      continue; // a torn or hand-broken line decides nothing: the item is asked about again
    }
    if (typeof v !== 'object' || v === null) continue;
    const d = v as Record<string, unknown>;
    if (typeof d.uid !== 'string') continue;
    if (d.action === 'drop') out.dropped.add(d.uid);
    else if (d.action === 'accept' && typeof d.sha === 'string') {
      const set = out.accepted.get(d.uid) ?? new Set<string>();
      set.add(d.sha);
      out.accepted.set(d.uid, set);
    }
  }
  return out;
}

export class TeamDecisions {
  private readonly file: SideFile<Parsed>;

  constructor(
    readonly path: string,
    opts: SideFileOptions = {},
  ) {
    this.file = new SideFile(path, parse, opts);
  }

  static open(memoryPath: string, opts: SideFileOptions = {}): TeamDecisions {
    const d = new TeamDecisions(realDir(teamReviewPath(memoryPath)), opts);
    sweepLockLeftovers(d.path);
    return d;
  }

  /** Where the user stands on this item's text; `fresh`: as last read (after version()), without a stat. */
  status(uid: string, content: string, fresh = false): TeamStatus {
    return statusIn(fresh ? this.file.lastRead() : this.file.current(), uid, content);
  }

  /** A stamp that changes when the file does (for caches). */
  version(): string {
    return this.file.version();
  }

  /** Record an answer; false when another aish answered for this text meanwhile (nothing written). */
  decide(uid: string, content: string, author: string, action: TeamAction, now = new Date()): Promise<boolean> {
    return this.file.locked((parsed) => {
      const st = statusIn(parsed, uid, content);
      if (st === 'dropped' || st === 'accepted') return { records: [], result: false };
      return { records: [{ ts: now.toISOString(), uid, sha: contentSha(content), action, author }], result: true };
    });
  }
}

function statusIn(parsed: Parsed, uid: string, content: string): TeamStatus {
  if (parsed.dropped.has(uid)) return 'dropped';
  const acc = parsed.accepted.get(uid);
  if (!acc) return 'pending';
  return acc.has(contentSha(content)) ? 'accepted' : 'changed';
}
