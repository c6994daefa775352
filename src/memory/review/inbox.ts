/**
 * inbox.jsonl: memory candidates waiting for review (inbox-types.ts has the records), a side file
 * (side-file.ts: locked whole-line appends, read whole; decided candidates are a few hundred bytes
 * each). Lines that cannot be used are skipped and listed in `warnings`, never fatal.
 */
import { parseJsonLine } from '../../util/line-warnings';
import { realDir } from '../../util/paths';
import type { ConflictDecision, InboxCandidate, InboxDecision, NewCandidate } from './inbox-types';
import { sweepLockLeftovers } from '../log/lock';
import { inboxPath } from './inbox-path';
import { SideFile } from '../side-file';
import type { MemoryStoreOptions } from '../store';
import { isMemoryKind, type SkippedLine } from '../types';

export { inboxPath };

export type InboxWarning = Pick<SkippedLine, 'line' | 'reason'>;

interface Parsed {
  candidates: InboxCandidate[];
  /** The first decision for each candidate id: later ones (a second reviewer) change nothing. */
  decisions: Map<number, InboxDecision>;
  /** Per replaced uid, the sets of uids kept whole. */
  keptAll: Map<string, Array<readonly string[]>>;
  warnings: InboxWarning[];
}

const emptyParsed = (): Parsed => ({ candidates: [], decisions: new Map(), keptAll: new Map(), warnings: [] });

/** What makes two candidates the same: white space and case aside. */
function sameText(content: string): string {
  return content.trim().replace(/\s+/g, ' ').toLowerCase();
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

function asCandidate(v: Record<string, unknown>): InboxCandidate | string {
  if (!isId(v.id)) return 'candidate without a valid id';
  if (!isMemoryKind(v.kind)) return `candidate ${v.id}: unknown kind ${JSON.stringify(v.kind)}`;
  if (typeof v.content !== 'string' || !v.content.trim()) return `candidate ${v.id}: no content`;
  if (!isObject(v.source) || typeof v.source.session !== 'string') return `candidate ${v.id}: no source session`;
  if (typeof v.ts !== 'string') return `candidate ${v.id}: no ts`;
  if (v.keys !== undefined && !(Array.isArray(v.keys) && v.keys.every((k) => typeof k === 'string')))
    return `candidate ${v.id}: keys not a list of words`;
  if ((v.agent !== undefined && typeof v.agent !== 'string') || (v.scope !== undefined && typeof v.scope !== 'string'))
    return `candidate ${v.id}: agent or scope not text`;
  if (v.forget !== undefined && !isId(v.forget)) return `candidate ${v.id}: bad forget id`;
  return v as unknown as InboxCandidate;
}

function asDecision(v: Record<string, unknown>): InboxDecision | string {
  if (!isId(v.review)) return 'decision without a valid review id';
  if (v.action !== 'keep' && v.action !== 'drop') return `decision for ${v.review}: unknown action ${JSON.stringify(v.action)}`;
  if (v.item !== undefined && !isId(v.item)) return `decision for ${v.review}: bad item id`;
  return v as unknown as InboxDecision;
}

function asConflictDecision(v: Record<string, unknown>): ConflictDecision | string {
  if (typeof v.conflict !== 'string' || !v.conflict) return 'conflict decision without a uid';
  if (v.action !== 'both') return `conflict decision for ${v.conflict}: unknown action ${JSON.stringify(v.action)}`;
  if (!Array.isArray(v.keep) || !v.keep.every((u) => typeof u === 'string')) return `conflict decision for ${v.conflict}: bad keep list`;
  return v as unknown as ConflictDecision;
}

function parseInbox(text: string): Parsed {
  const out = emptyParsed();
  const lines = text.split('\n');
  const torn = text.length > 0 && !text.endsWith('\n');
  const seen = new Set<number>();
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    const parsed = parseJsonLine(raw);
    if (!parsed.ok) {
      const last = torn && i === lines.length - 1;
      out.warnings.push({ line, reason: last ? 'torn last line (not valid JSON, no newline at the end)' : 'not valid JSON' });
      return;
    }
    const v = parsed.value;
    if (!isObject(v)) return void out.warnings.push({ line, reason: 'not a JSON object' });
    if ('conflict' in v) {
      const d = asConflictDecision(v);
      if (typeof d === 'string') return void out.warnings.push({ line, reason: d });
      return void out.keptAll.set(d.conflict, [...(out.keptAll.get(d.conflict) ?? []), d.keep]);
    }
    const r = 'review' in v ? asDecision(v) : asCandidate(v);
    if (typeof r === 'string') return void out.warnings.push({ line, reason: r });
    if ('review' in r) {
      if (!out.decisions.has(r.review)) out.decisions.set(r.review, r);
    } else if (seen.has(r.id)) out.warnings.push({ line, reason: `candidate ${r.id} again (the first one counts)` });
    else {
      seen.add(r.id);
      out.candidates.push(r);
    }
  });
  return out;
}

export class Inbox {
  private readonly file: SideFile<Parsed>;
  private readonly now: () => Date;

  private constructor(
    readonly path: string,
    opts: MemoryStoreOptions,
  ) {
    this.file = new SideFile(path, parseInbox, opts);
    this.now = opts.now ?? (() => new Date());
  }

  /** The inbox beside `memoryPath`. A missing file is an empty inbox; nothing is created until a write. */
  static open(memoryPath: string, opts: MemoryStoreOptions = {}): Inbox {
    // Symlinks resolved, so every process locks the same `<file>.lock`.
    const inbox = new Inbox(realDir(inboxPath(memoryPath)), opts);
    sweepLockLeftovers(inbox.path);
    return inbox;
  }

  /** Lines skipped at the last read. */
  get warnings(): readonly InboxWarning[] {
    return this.file.current().warnings;
  }

  /** Every candidate, oldest first (file order). */
  all(): InboxCandidate[] {
    return [...this.file.current().candidates];
  }

  /** Candidates no decision names, oldest first. */
  pending(): InboxCandidate[] {
    const { candidates, decisions } = this.file.current();
    return candidates.filter((c) => !decisions.has(c.id));
  }

  /** For a status line: only stats the file unless it changed. */
  pendingCount(): number {
    return this.pending().length;
  }

  decision(id: number): InboxDecision | undefined {
    return this.file.current().decisions.get(id);
  }

  /** The user kept every one of `rivals` (uids), the items replacing `replaced`, in an earlier review. */
  keptAll(replaced: string, rivals: readonly string[]): boolean {
    const sets = this.file.current().keptAll.get(replaced);
    return sets !== undefined && sets.some((keep) => rivals.every((u) => keep.includes(u)));
  }

  /** Record that the items `keep` (uids) replacing `replaced` are all kept: the conflict is not asked again. */
  async keepAll(replaced: string, keep: readonly string[]): Promise<void> {
    await this.file.locked(() => {
      const d: ConflictDecision = { ts: this.now().toISOString(), conflict: replaced, action: 'both', keep: [...keep] };
      return { records: [d], result: undefined };
    });
  }

  /**
   * Append candidates, leaving out one whose text a pending candidate already has, that the user
   * dropped in any session, or that a candidate of the same session already had and was decided
   * (asking twice about it would nag). Returns those added, with their ids.
   */
  async add(list: readonly NewCandidate[]): Promise<InboxCandidate[]> {
    return this.file.locked(({ candidates, decisions }) => {
      const pending = new Set<string>();
      const decided = new Set<string>();
      const dropped = new Set<string>();
      for (const c of candidates) {
        const d = decisions.get(c.id);
        if (d?.action === 'drop') dropped.add(sameText(c.content));
        if (d) decided.add(`${c.source.session}\u0000${sameText(c.content)}`);
        else pending.add(sameText(c.content));
      }
      let next = candidates.reduce((m, c) => Math.max(m, c.id), 0) + 1;
      const ts = this.now().toISOString();
      const added: InboxCandidate[] = [];
      for (const c of list) {
        const key = sameText(c.content);
        if (!key || pending.has(key) || dropped.has(key) || decided.has(`${c.source.session}\u0000${key}`)) continue;
        pending.add(key);
        added.push({ id: next++, ts, ...c });
      }
      return { records: added, result: added };
    });
  }

  /** Record the user's answer for candidate `id`. A candidate decided already (elsewhere) keeps its first decision. */
  async decide(id: number, action: 'keep' | 'drop', item?: number): Promise<void> {
    await this.settle(id, action, item === undefined ? undefined : async () => item);
  }

  /**
   * Decide candidate `id`, running `write` (the memory write a keep makes; it returns the item's
   * id) under the inbox lock first — so two reviewers never both act on one candidate. Null, and
   * `write` not run, when the candidate is already decided.
   */
  async settle(id: number, action: 'keep' | 'drop', write?: () => Promise<number | undefined>): Promise<InboxDecision | null> {
    return this.file.locked(async ({ decisions }) => {
      if (decisions.has(id)) return { records: [], result: null };
      const item = await write?.();
      const d: InboxDecision = { ts: this.now().toISOString(), review: id, action, ...(item !== undefined && { item }) };
      return { records: [d], result: d };
    });
  }
}
