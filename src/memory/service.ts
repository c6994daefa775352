/**
 * The memory verbs the front doors use — `:memory …` in the REPL and `aish memory …` on the command
 * line — over one MemorySession. Each verb does the work and returns what happened as an object;
 * commands/memory-verbs.ts presents it, the same for both doors. With `memory: false` a door gets
 * `memoryOff`, whose every verb refuses with one line.
 */
import { findSuperseded } from './review/supersede';
import { pinReport } from './background/pins-left-out';
import { conflictedIds, findConflicts, lazyKept } from './review/conflicts';
import { lockTimingFromEnv } from './log/lock';
import type { Inbox } from './review/inbox';
import { addThroughIndex } from './index/add';
import { projectScope, scopeFilter } from './project/project';
import { projectCreatedAt, trustProjectAt } from './project/project-confirm';
import type { MemoryPlan } from './recall/plan';
import type { Recalled } from './recall/recall';
import { listReceipts, undoReceipt, type ReceiptView } from './receipts/receipt-undo';
import { ReceiptFile } from './receipts/receipts';
import type { SyncReport } from './sync/report';
import type { SyncOptions } from './sync/run';
import type { MemorySession } from './session';
import type { MemoryStore } from './store';
import { listedThroughIndex } from './index/list';
import type { TeamMemory } from './team/team-memory';
import { clearAll, compactFile, editItem, forgetItem, pinItem, privateNote, redacted, type OpResult } from './ops';
import { unreadableCount, type MemoryItem, type MemoryKind, type SkippedLine } from './types';
import { AishError, UsageError } from '../util/errors';
import type { SyncConfig } from '../config/types';

/** The active items as a listing shows them. */
export interface Listing {
  items: readonly MemoryItem[];
  /** `list --json` on the command line through an index in step with the file (index/list.ts): streamed, no full read. */
  streamed?: { items: Iterable<MemoryItem>; isPinned: (item: MemoryItem) => boolean };
  /** Active items in every project (`items` is those that apply here, with `here`). */
  all: number;
  here: boolean;
  injected: ReadonlySet<number>;
  pinnedLeftOut: readonly number[];
  conflicted: ReadonlySet<number>;
  isPinned: (item: MemoryItem) => boolean;
  skipped: readonly SkippedLine[];
  budget: number;
  injecting: boolean;
  team: TeamMemory;
  cwd: string;
}

interface AddRequest {
  kind: MemoryKind;
  text: string;
  project: boolean;
  private: boolean;
  /** Asked when the text looks like an update of an active item (given only when a person can answer). */
  replace?: (old: MemoryItem, text: string) => Promise<boolean>;
}

export type Changed = OpResult & { unreadable: number; skipped: readonly SkippedLine[] };
type Added = Changed & { item?: MemoryItem; inBackground: boolean };
type Pinned = Changed & { notes: ReturnType<typeof pinReport> };
type Found = { hits: Recalled[]; unreadable: number; isPinned: (item: MemoryItem) => boolean };
type Planned = Found & { plan: MemoryPlan; query: string | null; injecting: boolean };
type SyncAsk = Pick<SyncOptions, 'dryRun' | 'yes' | 'confirm' | 'timeoutMs' | 'notice'>;

/** `:memory inject`: the file read again whole; `items`, `injected`: counts. */
export type Injected = Record<'items' | 'injected' | 'budget', number> & { skipped: readonly SkippedLine[]; injecting: boolean } & {
  dangling: ReturnType<MemoryStore['danglingTombstones']>;
};

/** What the review walk and `:memory summarize` write through. */
interface ReviewParts {
  store: MemoryStore;
  inbox: Inbox;
  team: TeamMemory;
  cwd: string;
  summarizerModel: string | undefined;
  /** After the walk: [background] and the status are made again. */
  changed: () => void;
}

export interface MemoryService {
  readonly path: string;
  /** `marks`: what is in [background] and in conflict too (JSON needs only the items). */
  list(here: boolean, marks: boolean): Promise<Listing>;
  add(req: AddRequest): Promise<Added>;
  edit(id: number, text: string, hint: string): Promise<Changed>;
  forget(id: number, hint: string): Promise<Changed>;
  pin(id: number, on: boolean, hint: string): Promise<Pinned>;
  clear(confirm: (count: number) => Promise<boolean>): Promise<Changed>;
  compact(): Promise<Changed>;
  search(text: string, limit: number): Promise<Found>;
  plan(text: string | null): Promise<Planned>;
  receipts(): Promise<ReceiptView[]>;
  undo(id: string): Promise<string>;
  sync(ask: SyncAsk): Promise<SyncReport>;
  share(id: number, hint: string): Promise<string>;
  trust(revoke: boolean): Promise<string>;
  inject(): Promise<Injected>;
  /** Active items' ids or receipts' ids, for Tab (none when they cannot be read). */
  ids(of: 'items' | 'receipts'): string[];
  review(): Promise<ReviewParts>;
}

/** `memory: false`: one object whose every verb refuses with `why`, touching nothing (`path` still answers). */
export function memoryOff(why: string, path: string): MemoryService {
  const refuse = (): never => {
    throw new UsageError(why);
  };
  return new Proxy({} as MemoryService, { get: (_t, key) => (key === 'path' ? path : key === 'ids' ? () => [] : refuse) });
}

/** A listing whose items are streamed: nothing else of it is read. */
function noListing(m: MemorySession, here: boolean): Listing {
  const none = new Set<number>();
  const nothing = { items: [], all: 0, injected: none, pinnedLeftOut: [], conflicted: none, skipped: [], isPinned: () => false };
  return { ...nothing, here, budget: m.budget, injecting: m.injecting, team: m.team(), cwd: m.cwd };
}

/** What the verbs need beside the session. */
interface ServiceOptions {
  /** The REPL: start-up memory is waited for first, and [background] chosen again after a change. */
  live: boolean;
  /** `memory.sync`, when set up. */
  sync: SyncConfig | undefined;
  /** A warning for the user (a file made private, a lock taken over). */
  notice: (text: string) => void;
}

/** The verbs over `m` (a command-line run loads nothing at start and has nothing to redo). */
export function memoryService(m: MemorySession, { live, sync, notice }: ServiceOptions): MemoryService {
  const start = () => (live ? m.ready() : Promise.resolve());
  const changed = () => {
    if (live) m.reselect();
  };
  const opened = async () => {
    await start();
    return m.store();
  };
  const after = async <R extends OpResult>(
    store: MemoryStore,
    r: R,
  ): Promise<R & { unreadable: number; skipped: readonly SkippedLine[] }> => {
    if (r.changed) changed();
    const skipped = store.skipped;
    return { ...r, skipped, unreadable: unreadableCount(skipped) };
  };
  const receipts = () => new ReceiptFile(m.path, { lock: lockTimingFromEnv() });
  const found = (hits: Recalled[]): Found => ({ hits, unreadable: m.counts().unreadable, isPinned: (it) => m.isPinned(it) });

  return {
    path: m.path,
    async list(here, marks) {
      const streamed = !live && !marks ? listedThroughIndex(m.path, here ? scopeFilter(m.cwd) : null) : null;
      if (streamed) return { ...noListing(m, here), streamed };
      const store = await opened();
      store.reload();
      const all = store.items();
      const injecting = m.injecting;
      // [background] as the index chooses it (the one read model), on the command line too.
      const bg = !injecting || !marks ? null : m.background();
      const shown = live ? m.injected : (bg?.items ?? []);
      const inbox = () => m.inbox();
      return {
        items: here ? all.filter(scopeFilter(m.cwd)) : all,
        all: all.length,
        here,
        injected: new Set(shown.map((it) => it.id)),
        pinnedLeftOut: bg?.pinnedLeftOut ?? [],
        // The inbox is read only when there is a conflict: it holds those the user chose to keep whole.
        conflicted: marks ? conflictedIds(findConflicts(store, lazyKept(inbox))) : new Set<number>(),
        isPinned: (it) => store.isPinned(it),
        skipped: store.skipped,
        budget: m.budget,
        injecting,
        team: m.team(),
        cwd: m.cwd,
      };
    },
    async add(req) {
      await start();
      const scope = req.project ? projectScope(m.cwd) : undefined;
      const opts = { ...(scope && { scope }), ...(req.private && { private: true }) };
      const safe = redacted(req.text);
      // Only a person is asked: a script's next line is its next command, not an answer.
      const near = req.replace && (await m.nearby(safe.text, 50).catch(() => ({ items: [] }))).items;
      const old = near && findSuperseded({ kind: req.kind, content: safe.text, ...(scope && { scope }) }, near);
      let r: Changed & { item: MemoryItem };
      if (old && (await req.replace!(old, safe.text))) {
        const s = await m.store().supersede(old.id, req.kind, safe.text, opts);
        const forgot = s.replaced ? `, forgot ${s.replaced.id}` : '';
        const text = `added ${s.item.id} (${s.item.kind})${privateNote(s.item)}${forgot}${safe.note}`;
        r = { ok: true, changed: true, text, item: s.item, unreadable: 0, skipped: [] };
      } else {
        const a = await addThroughIndex(m.path, req.kind, req.text, opts, { lock: lockTimingFromEnv(), notice });
        r = { ...a, skipped: [] };
      }
      // Adding a project item here makes this checkout that project (project-trust.ts).
      if (r.changed && scope) await projectCreatedAt(m.path, m.cwd);
      if (r.changed) changed();
      // Not in [background]: it reaches the model through [recall] when a message is about it.
      return { ...r, inBackground: !live || !m.injecting || m.injected.some((i) => i.id === r.item.id) };
    },
    async edit(id, text, hint) {
      const store = await opened();
      return after(store, await editItem(store, id, text, hint));
    },
    async forget(id, hint) {
      const store = await opened();
      return after(store, await forgetItem(store, id, hint));
    },
    async pin(id, on, hint) {
      const store = await opened();
      const before = m.background().pinnedLeftOut;
      const r = await after(store, await pinItem(store, id, on, hint));
      return { ...r, notes: r.ok ? pinReport(id, on, before, m.background(), m.budget) : [] };
    },
    async clear(confirm) {
      const store = await opened();
      return after(store, await clearAll(store, confirm));
    },
    async compact() {
      const store = await opened();
      const skipped = store.skipped;
      const r = await compactFile(store);
      changed();
      // The rewrite moves what was unreadable aside: what it was is told from the read before it.
      return { ...r, skipped, unreadable: unreadableCount(skipped) };
    },
    async search(text, limit) {
      await start();
      return found(await m.search(text, limit));
    },
    async plan(text) {
      await start();
      const plan = await m.plan(text);
      return { ...found([]), plan, query: text, injecting: m.injecting };
    },
    async receipts() {
      await start();
      return listReceipts(receipts());
    },
    async undo(id) {
      const store = await opened();
      const text = await undoReceipt(store, receipts(), id, () => new Date());
      changed();
      return text;
    },
    async sync(ask) {
      if (!sync) throw new UsageError('memory sync is not set up — add memory: { sync: { remote: "…" } } to the config (see the README)');
      await start();
      // Loaded when asked for: start-up never needs the sync engine.
      const { runSync } = await import('./sync/run');
      const where = { memoryPath: m.path, remote: sync.remote, ...(sync.name && { name: sync.name }) };
      const r = await runSync({ ...where, ...ask, lock: lockTimingFromEnv() });
      if (r.received > 0 || r.forgotten > 0) changed();
      return r;
    },
    async share(id, hint) {
      const store = await opened();
      store.reload();
      const item = store.get(id);
      if (!item) throw new AishError(`no active memory item ${id} (unknown or forgotten); nothing shared (see ${hint})`);
      return m.team().share(item, m.cwd).text;
    },
    async trust(revoke) {
      await start();
      const text = await trustProjectAt(m.path, m.cwd, revoke);
      changed();
      return text;
    },
    async inject() {
      const store = await opened();
      // A fresh load (hand edits, other shells, compaction) replaces what is injected.
      const snap = store.reload(true);
      m.reselect(true);
      const { injecting, budget } = m;
      const dangling = store.danglingTombstones();
      return { skipped: snap.skipped, dangling, items: snap.items.length, injected: m.injected.length, budget, injecting };
    },
    ids(of) {
      try {
        return of === 'receipts'
          ? listReceipts(receipts()).map((r) => r.id)
          : m
              .store()
              .items()
              .map((i) => String(i.id));
      } catch {
        return [];
      }
    },
    async review() {
      const store = await opened();
      return { store, inbox: m.inbox(), team: m.team(), cwd: m.cwd, summarizerModel: m.summarizerModel, changed: () => m.reselect() };
    },
  };
}
