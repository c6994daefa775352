/**
 * The memory verbs the front doors use — `:memory …` in the REPL and `aish memory …` on the command
 * line — over one MemorySession. Each verb does the work and returns what happened as an object;
 * commands/memory-verbs.ts presents it, the same for both doors. With `memory: false` a door gets
 * `memoryOff`, whose every verb refuses with one line. The command line's session is made only by a
 * verb that needs it (`add` and `list --json` go through the index alone), and each verb loads only
 * the modules it uses: a one-verb process pays for that verb.
 */
import type { pinReport } from './background/pins-left-out';
import { lockTimingFromEnv } from './log/lock';
import type { Inbox } from './review/inbox';
import type { MemoryPlan } from './recall/plan';
import type { Recalled } from './recall/recall';
import type { ReceiptView } from './receipts/receipt-undo';
import type { SyncReport } from './sync/report';
import type { SyncOptions } from './sync/run';
import type { MemorySession } from './session';
import type { MemoryStore } from './store';
import { fullListing, listedThroughIndex, type ItemListing, type Listing } from './index/list';

export type { ItemListing, Listing } from './index/list';
import type { TeamMemory } from './team/team-memory';
import type { OpResult } from './ops';
import { unreadableCount, type MemoryItem, type MemoryKind, type SkippedLine } from './types';
import { AishError, UsageError } from '../util/errors';
import type { SyncConfig } from '../config/types';

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
  /** The listing the text shows: with what is in [background] and in conflict. */
  list(here: boolean): Promise<Listing>;
  /** The items alone (`list --json`). */
  listItems(here: boolean): Promise<ItemListing>;
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
  /** Active items' ids or the ids of receipts not yet undone, for Tab (none when they cannot be read). */
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

/** A session made on first need (the command line): where it is, and how to make it. */
export interface LazySession {
  readonly path: string;
  readonly cwd: string;
  open(): Promise<MemorySession>;
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

/** The verbs over the REPL's session, or (the command line) one made when a verb first needs it. */
export function memoryService(source: MemorySession | LazySession, { live, sync, notice }: ServiceOptions): MemoryService {
  const path = source.path;
  let made: MemorySession | null = 'open' in source ? null : source;
  let making: Promise<MemorySession> | null = null;
  const session = async () => (made ??= await (making ??= (source as LazySession).open()));
  const start = async () => {
    const m = await session();
    if (live) await m.ready();
    return m;
  };
  const changed = () => {
    if (live) made?.reselect();
  };
  const opened = async () => (await start()).store();
  const after = <R extends OpResult>(store: MemoryStore, r: R): R & { unreadable: number; skipped: readonly SkippedLine[] } => {
    if (r.changed) changed();
    const skipped = store.skipped;
    return { ...r, skipped, unreadable: unreadableCount(skipped) };
  };
  /** One change through the store (ops.ts), and what the read before it could not read. */
  const write = async (op: (o: typeof import('./ops'), store: MemoryStore) => Promise<OpResult>) => {
    const store = await opened();
    return after(store, await op(await import('./ops'), store));
  };
  // Loaded by the verbs that read receipts, and at once in the REPL, where Tab completes their ids.
  let receiptCode: Awaited<ReturnType<typeof loadReceipts>> | null = null;
  const receiptsCode = async () => (receiptCode ??= await loadReceipts());
  if (live) receiptsCode().catch(() => {});
  const receipts = (c: typeof receiptCode & {}) => new c.ReceiptFile(path, { lock: lockTimingFromEnv() });
  const found = (m: MemorySession, hits: Recalled[]): Found => ({ hits, unreadable: m.counts().unreadable, isPinned: m.isPinned.bind(m) });
  // Scope matching asks which checkouts the user confirmed as projects (project-trust.ts).
  const projects = async () => {
    (await import('./project/project-trust')).useConfirmedProjects(path, { lock: lockTimingFromEnv(), notice });
    return import('./project/project');
  };
  const applyHere = async (here: boolean) => (here ? (await projects()).scopeFilter(source.cwd) : null);

  return {
    path,
    async list(here) {
      const m = await start();
      return fullListing(m, live, await applyHere(here), here);
    },
    async listItems(here) {
      const applies = await applyHere(here);
      // The command line reads through an index in step with the file (index/list.ts): streamed, no full read.
      const streamed = live ? null : listedThroughIndex(path, applies);
      if (streamed) return streamed;
      const store = await opened();
      store.reload();
      const all = store.items();
      return { items: applies ? all.filter(applies) : all, isPinned: (it) => store.isPinned(it), skipped: store.skipped };
    },
    async add(req) {
      const m = live ? await start() : null;
      const scope = req.project ? (await projects()).projectScope(source.cwd) : undefined;
      const opts = { ...(scope && { scope }), ...(req.private && { private: true }) };
      // Only a person is asked (`replace`): a script's next line is its next command, not an answer.
      let r = req.replace ? await replaceAsked(await session(), req, scope) : null;
      if (!r) {
        const { addThroughIndex } = await import('./index/add');
        r = { ...(await addThroughIndex(path, req.kind, req.text, opts, { lock: lockTimingFromEnv(), notice })), skipped: [] };
      }
      // Adding a project item here makes this checkout that project (project-trust.ts).
      if (r.changed && scope) await (await import('./project/project-confirm')).projectCreatedAt(path, source.cwd);
      if (r.changed) changed();
      // Not in [background]: it reaches the model through [recall] when a message is about it.
      const id = r.item.id;
      return { ...r, inBackground: !m || !m.injecting || m.injected.some((i) => i.id === id) };
    },
    edit: (id, text, hint) => write((o, store) => o.editItem(store, id, text, hint)),
    forget: (id, hint) => write((o, store) => o.forgetItem(store, id, hint)),
    async pin(id, on, hint) {
      const m = await start();
      const store = m.store();
      const before = m.background().pinnedLeftOut;
      const r = after(store, await (await import('./ops')).pinItem(store, id, on, hint));
      const { pinReport } = await import('./background/pins-left-out');
      return { ...r, notes: r.ok ? pinReport(id, on, before, m.background(), m.budget) : [] };
    },
    clear: (confirm) => write((o, store) => o.clearAll(store, confirm)),
    async compact() {
      const store = await opened();
      const skipped = store.skipped;
      const r = await (await import('./ops')).compactFile(store);
      changed();
      // The rewrite moves what was unreadable aside: what it was is told from the read before it.
      return { ...r, skipped, unreadable: unreadableCount(skipped) };
    },
    async search(text, limit) {
      const m = await start();
      return found(m, await m.search(text, limit));
    },
    async plan(text) {
      const m = await start();
      const plan = await m.plan(text);
      return { ...found(m, []), plan, query: text, injecting: m.injecting };
    },
    async receipts() {
      if (live) await start();
      const c = await receiptsCode();
      return c.listReceipts(receipts(c));
    },
    async undo(id) {
      const store = await opened();
      const c = await receiptsCode();
      const text = await c.undoReceipt(store, receipts(c), id, () => new Date());
      changed();
      return text;
    },
    async sync(ask) {
      if (!sync) throw new UsageError('memory sync is not set up — add memory: { sync: { remote: "…" } } to the config (see the README)');
      if (live) await start();
      // Loaded when asked for: start-up never needs the sync engine.
      const { runSync } = await import('./sync/run');
      const where = { memoryPath: path, remote: sync.remote, ...(sync.name && { name: sync.name }) };
      const r = await runSync({ ...where, ...ask, lock: lockTimingFromEnv() });
      if (r.received > 0 || r.forgotten > 0) changed();
      return r;
    },
    async share(id, hint) {
      const m = await start();
      const store = m.store();
      store.reload();
      const item = store.get(id);
      if (!item) throw new AishError(`no active memory item ${id} (unknown or forgotten); nothing shared (see ${hint})`);
      return m.team().share(item, m.cwd).text;
    },
    async trust(revoke) {
      if (live) await start();
      await projects();
      const text = await (await import('./project/project-confirm')).trustProjectAt(path, source.cwd, revoke);
      changed();
      return text;
    },
    async inject() {
      const m = await start();
      const store = m.store();
      // A fresh load (hand edits, other shells, compaction) replaces what is injected.
      const snap = store.reload(true);
      m.reselect(true);
      const { injecting, budget } = m;
      const dangling = store.danglingTombstones();
      return { skipped: snap.skipped, dangling, items: snap.items.length, injected: m.injected.length, budget, injecting };
    },
    ids(of) {
      try {
        if (of === 'receipts')
          return receiptCode ? receiptCode.listReceipts(receipts(receiptCode)).flatMap((r) => (r.undone ? [] : [r.id])) : [];
        return (made?.store().items() ?? []).map((i) => String(i.id));
      } catch {
        return [];
      }
    },
    async review() {
      const m = await start();
      return {
        store: m.store(),
        inbox: m.inbox(),
        team: m.team(),
        cwd: m.cwd,
        summarizerModel: m.summarizerModel,
        changed: () => m.reselect(),
      };
    },
  };
}

/** An add that looks like an update of an active item ("uses Node 18" → "20"), asked: yes replaces it in one write; null: no. */
async function replaceAsked(
  m: MemorySession,
  req: AddRequest,
  scope: string | undefined,
): Promise<(Changed & { item: MemoryItem }) | null> {
  const [{ findSuperseded }, { privateNote, redacted }] = await Promise.all([import('./review/supersede'), import('./ops')]);
  const safe = redacted(req.text);
  const near = (await m.nearby(safe.text, 50).catch(() => ({ items: [] }))).items;
  const old = findSuperseded({ kind: req.kind, content: safe.text, ...(scope && { scope }) }, near);
  if (!old || !(await req.replace!(old, safe.text))) return null;
  const opts = { ...(scope && { scope }), ...(req.private && { private: true }) };
  const s = await m.store().supersede(old.id, req.kind, safe.text, opts);
  const forgot = s.replaced ? `, forgot ${s.replaced.id}` : '';
  const text = `added ${s.item.id} (${s.item.kind})${privateNote(s.item)}${forgot}${safe.note}`;
  return { ok: true, changed: true, text, item: s.item, unreadable: 0, skipped: [] };
}

async function loadReceipts() {
  const [undo, file] = await Promise.all([import('./receipts/receipt-undo'), import('./receipts/receipts')]);
  return { listReceipts: undo.listReceipts, undoReceipt: undo.undoReceipt, ReceiptFile: file.ReceiptFile };
}
