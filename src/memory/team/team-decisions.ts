/**
 * team-review.jsonl, beside memory.jsonl: the user's answers about teammates' items, one line per
 * answer — `{"ts","uid","key","action":"accept"|"drop","author","project"}`. A side file like
 * inbox.jsonl (its own lock, whole fsynced lines, 0600; side-file.ts), read whole, broken lines
 * skipped. An acceptance holds for exactly what the user saw: the project it was accepted in, the
 * author, the uid, the kind, the text and its tags and search words (`key`, the sha-256 of them
 * all) — a file copied into another repository, renamed to another author, or changed in any of
 * these is asked about again. Acceptances written before the key (`sha`: the text alone) are
 * asked about again once. A drop holds for the uid, whatever becomes of it.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { realDir } from '../../util/paths';
import { sweepLockLeftovers } from '../log/lock';
import { jsonObjectLines, SideFile, type SideFileOptions } from '../side-file';

export type TeamStatus = 'accepted' | 'dropped' | 'pending' | 'changed';
export type TeamAction = 'accept' | 'drop';

export function teamReviewPath(memoryPath: string): string {
  return join(dirname(memoryPath), 'team-review.jsonl');
}

/** What an acceptance is bound to: the item as the user saw it, and where. */
export interface TeamBinding {
  /** The project's first name where it was read (`git:…`, `id:…`, or its root's path). */
  project: string;
  uid: string;
  author: string;
  kind: string;
  content: string;
  tags?: readonly string[] | undefined;
  keys?: readonly string[] | undefined;
}

/** The key an acceptance holds for. */
function bindingKey(b: TeamBinding): string {
  const fields = [b.project, b.author, b.uid, b.kind, b.content, [...(b.tags ?? [])].sort(), [...(b.keys ?? [])].sort()];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

interface Parsed {
  accepted: Map<string, Set<string>>;
  dropped: Set<string>;
}

function parse(text: string): Parsed {
  const out: Parsed = { accepted: new Map(), dropped: new Set() };
  // A torn or hand-broken line decides nothing: the item is asked about again.
  for (const d of jsonObjectLines(text)) {
    if (typeof d.uid !== 'string') continue;
    if (d.action === 'drop') out.dropped.add(d.uid);
    else if (d.action === 'accept' && (typeof d.key === 'string' || typeof d.sha === 'string')) {
      // An old record (text only) keeps the uid known, so the item shows as changed, and accepts nothing.
      const set = out.accepted.get(d.uid) ?? new Set<string>();
      if (typeof d.key === 'string') set.add(d.key);
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

  /** Where the user stands on this item as it reads here; `fresh`: as last read (after version()), without a stat. */
  status(b: TeamBinding, fresh = false): TeamStatus {
    return statusIn(fresh ? this.file.lastRead() : this.file.current(), b);
  }

  /** A stamp that changes when the file does (for caches). */
  version(): string {
    return this.file.version();
  }

  /** Record an answer; false when another aish answered for this item meanwhile (nothing written). */
  decide(b: TeamBinding, action: TeamAction, now = new Date()): Promise<boolean> {
    return this.file.locked((parsed) => {
      const st = statusIn(parsed, b);
      if (st === 'dropped' || st === 'accepted') return { records: [], result: false };
      const record = { ts: now.toISOString(), uid: b.uid, key: bindingKey(b), action, author: b.author, project: b.project };
      return { records: [record], result: true };
    });
  }

  /** Take back acceptances (an undone receipt): a drop for each uid not dropped already; how many. */
  revoke(uids: readonly string[], now = new Date()): Promise<number> {
    return this.file.locked((parsed) => {
      const records = [...new Set(uids)]
        .filter((uid) => !parsed.dropped.has(uid))
        .map((uid) => ({ ts: now.toISOString(), uid, action: 'drop' }));
      return { records, result: records.length };
    });
  }
}

function statusIn(parsed: Parsed, b: TeamBinding): TeamStatus {
  if (parsed.dropped.has(b.uid)) return 'dropped';
  const acc = parsed.accepted.get(b.uid);
  if (!acc) return 'pending';
  return acc.has(bindingKey(b)) ? 'accepted' : 'changed';
}
