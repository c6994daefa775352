/**
 * team-review.jsonl, beside memory.jsonl: the user's answers about teammates' items, one line per
 * answer — `{"ts","uid","sha","action":"accept"|"drop","author"}`. Written like inbox.jsonl (its
 * own lock, whole fsynced lines, 0600), read whole (it stays small), broken lines skipped. An
 * acceptance holds for one uid AND one text (its sha-256): a teammate who later changes an accepted
 * item's text is asked again. A drop holds for the uid, whatever its text becomes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errnoCode } from '../../util/errors';
import { ensurePrivateDir } from '../../util/fs-safe';
import { realDir } from '../../util/paths';
import { appendRecords } from '../append';
import { DEFAULT_LOCK_TIMING, sweepLockLeftovers, withLock, type LockTiming } from '../lock';

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
  private parsed: Parsed = { accepted: new Map(), dropped: new Set() };
  private stamp: string | null = null;
  private readonly timing: LockTiming;

  constructor(
    readonly path: string,
    private readonly opts: { lock?: Partial<LockTiming>; notice?: (text: string) => void } = {},
  ) {
    this.timing = { ...DEFAULT_LOCK_TIMING, ...opts.lock };
  }

  static open(memoryPath: string, opts: { lock?: Partial<LockTiming>; notice?: (text: string) => void } = {}): TeamDecisions {
    const d = new TeamDecisions(realDir(teamReviewPath(memoryPath)), opts);
    sweepLockLeftovers(d.path);
    return d;
  }

  /** Where the user stands on this item's text; `fresh`: as last read (after version()), without a stat. */
  status(uid: string, content: string, fresh = false): TeamStatus {
    if (!fresh) this.refresh();
    if (this.parsed.dropped.has(uid)) return 'dropped';
    const acc = this.parsed.accepted.get(uid);
    if (!acc) return 'pending';
    return acc.has(contentSha(content)) ? 'accepted' : 'changed';
  }

  /** A stamp that changes when the file does (for caches). */
  version(): string {
    this.refresh();
    return this.stamp ?? '';
  }

  /** Record an answer; false when another aish answered for this text meanwhile (nothing written). */
  async decide(uid: string, content: string, author: string, action: TeamAction, now = new Date()): Promise<boolean> {
    const notice = this.opts.notice ?? (() => {});
    ensurePrivateDir(dirname(this.path));
    return withLock(
      this.path,
      (guard) => {
        this.refresh(true);
        const st = this.status(uid, content);
        if (st === 'dropped' || st === 'accepted') return false;
        guard.assertHeld();
        const rec = { ts: now.toISOString(), uid, sha: contentSha(content), action, author };
        appendRecords(this.path, JSON.stringify(rec) + '\n', '', notice);
        this.refresh(true);
        return true;
      },
      this.timing,
      notice,
    );
  }

  private refresh(force = false): void {
    let st;
    try {
      st = statSync(this.path);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
    const stamp = st ? `${st.size}:${st.mtimeMs}:${st.ino}` : '';
    if (!force && stamp === this.stamp) return;
    let text = '';
    try {
      text = st?.isFile() ? readFileSync(this.path, 'utf8') : '';
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
    }
    this.parsed = parse(text);
    this.stamp = stamp;
  }
}
