/**
 * `aish memory sync`: one sync of a store with its repository (docs/memory-sync.md).
 *  1. Take what memory.jsonl gained since the last sync into the outbox (outgoing.ts).
 *  2. Fetch; put the clone exactly on the remote's main; append the outbox to this writer's file;
 *     commit; push — again from the fetch when another machine pushed first.
 *  3. Read the other writers' new lines and write what they mean into memory.jsonl (apply.ts).
 * Each step's result is on disk before the next begins, so a sync killed anywhere is completed by
 * the next one, with nothing lost or doubled.
 */
import { rmSync, statSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { ensurePrivateDir } from '../../util/fs-safe';
import { realDir } from '../../util/paths';
import { AishError } from '../../util/errors';
import { loadIdentity, newIdentity } from '../log/identity';
import { MemoryStore, type MemoryStoreOptions } from '../store';
import { LockBusyError, withLock } from '../log/lock';
import { applyIncoming } from './apply';
import { refuseWorkTreeRemote } from './check-repo';
import { syncGitEnv } from './git';
import { readWriters, takeAtThisClock } from './incoming';
import { Ledger } from './ledger';
import { stage, type Staged } from './outgoing';
import { stageAndSave } from './stage-now';
import { appendOwn, ownTail, readUpTo } from './own-file';
import { outboxText, readOutbox, writeOutbox, type Outgoing } from './outbox';
import { syncPaths } from './paths';
import { SyncRepo } from './repo';
import type { SyncReport } from './report';
import { loadState, newWriterId, saveState, type SyncState } from './state';

export interface SyncOptions extends MemoryStoreOptions {
  memoryPath: string;
  remote: string;
  /** A label for this machine in the repository (`memory.sync.name`). */
  name?: string;
  dryRun?: boolean;
  /** Accept a mass forget without asking. */
  yes?: boolean;
  /** Asks the user; absent when there is no terminal (a mass forget is then refused). */
  confirm?: (question: string) => Promise<boolean>;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

const PUSH_TRIES = 8;

export async function runSync(o: SyncOptions): Promise<SyncReport> {
  const file = realDir(o.memoryPath);
  const paths = syncPaths(file);
  refuseWorkTreeRemote(o.remote);
  ensurePrivateDir(dirname(file));
  ensurePrivateDir(paths.dir);
  await loadIdentity();
  try {
    return await withLock(paths.lock, () => syncLocked(file, o), { waitMs: 200, staleMs: 10_000 }, o.notice);
  } catch (err) {
    if (err instanceof LockBusyError) throw new AishError('another memory sync of this store is running — try again when it has finished');
    throw err;
  }
}

async function syncLocked(file: string, o: SyncOptions): Promise<SyncReport> {
  const paths = syncPaths(file);
  const notice = o.notice ?? (() => {});
  const now = o.now ?? (() => new Date());
  const dry = o.dryRun === true;
  const loaded = loadState(paths.state, o.remote);
  const fresh = loaded.fresh;
  let state = loaded.state;

  // The repository first: one that is not a memory repository is refused before anything here changes.
  const env = syncGitEnv(o.env ?? process.env, o.name || 'aish');
  const repo = new SyncRepo(paths.repo, o.remote, env, Date.now() + o.timeoutMs);
  await repo.prepare();
  const head = await repo.fetch();

  if (fresh) {
    // Positions about another remote (or none): what this one holds is learnt from scratch.
    for (const p of [paths.ledger, paths.outbox]) if (!dry) rmSync(p, { force: true });
  }
  const ledger = Ledger.load(paths.ledger);
  const report: SyncReport = {
    sent: 0,
    received: 0,
    machines: 0,
    conflicts: 0,
    forgotten: 0,
    held: { private: 0, secret: 0, local: 0 },
    dryRun: dry,
  };

  // 1. The outbox.
  let staged: Staged;
  if (dry) staged = stage(file, state.send, ledger, fresh ? [] : readOutbox(paths.outbox), state.sendHlc);
  else {
    ({ staged, state } = stageAndSave(file, state, fresh, ledger));
    if (staged.reforget.length > 0) await reforget(file, staged.reforget, notice, o);
  }
  report.held = staged.held;
  const known = new Set<string>(staged.outbox.map((r) => r.uid));
  for (const uid of staged.localUids) known.add(uid);

  // 2. The repository's files, as they are on its main.
  await repo.checkout(head);
  let outbox = staged.outbox;
  const landed = ownTail(paths.repo, state.writer, state.part ?? 1, state.pushed);
  if (landed.records.length > 0) {
    const pending = new Set(outbox.map((r) => r.uid));
    if (landed.records.every((r) => pending.has(r.uid))) {
      // Our own push, which landed before the sync that made it was stopped: note it now.
      if (!dry) {
        for (const r of landed.records) learn(ledger, r, state.writer);
        ledger.flush();
        const got = new Set(landed.records.map((r) => r.uid));
        outbox = outbox.filter((r) => !got.has(r.uid));
        writeOutbox(paths.outbox, outbox);
        state = { ...state, part: landed.part, pushed: landed.bytes };
        saveState(paths.state, state);
      }
    } else {
      // The remote holds lines under our id that this store never pushed: this data directory is a
      // copy of another machine's. Those files are theirs now; we write under a new id.
      const seen = readUpTo(paths.repo, state.writer, state.part ?? 1, state.pushed);
      state = { ...state, writer: newWriterId(), part: 1, pushed: 0, read: { ...state.read, ...seen } };
      report.newWriter = state.writer;
      if (!dry) saveState(paths.state, state);
    }
  }
  report.sent = staged.outbox.length;
  if (!dry && outbox.length > 0) {
    const at = await push(repo, head, outbox, o, state);
    for (const r of outbox) learn(ledger, r, state.writer);
    ledger.flush();
    writeOutbox(paths.outbox, []);
    state = { ...state, part: at.part, pushed: at.pushed };
    saveState(paths.state, state);
  }

  // 3. What the others sent.
  const batches = readWriters(paths.repo, state.writer, state.read, o.name);
  const future = takeAtThisClock(
    batches,
    now(),
    () => newIdentity(now()).hlc,
    (uid) => !ledger.knows(uid) && !known.has(uid),
  );
  const applied = await applyIncoming(file, batches, ledger, {
    known,
    dryRun: dry,
    notice,
    now,
    ...(o.lock && { lock: o.lock }),
    guard: { held: paths.held, times: paths.guard, readBefore: Object.keys(state.read).map((k) => k.split('.')[0]!), self: state.writer },
    confirmForgets: async (n, active) => {
      if (o.yes) return true;
      if (!o.confirm) return false;
      return o.confirm(`sync would forget ${n} of ${active} items here (another machine forgot or cleared them) — apply? [y/N] `);
    },
  });
  Object.assign(report, {
    received: applied.received,
    machines: applied.machines,
    conflicts: applied.conflicts,
    forgotten: applied.forgets,
  });
  if (future > 0 && applied.received > 0) report.future = future;
  if (applied.waiting.length > 0) report.waiting = applied.waiting;
  if (applied.refused) report.refused = applied.refused;
  else if (!dry) {
    const read = { ...state.read };
    for (const b of batches) read[b.key] = b.end;
    state = { ...state, read, last: now().toISOString() };
    saveState(paths.state, state);
  }
  return report;
}

/** Append the outbox to our writer file on top of the remote's main and push, again on a race; where our file now ends. */
async function push(
  repo: SyncRepo,
  base: string | null,
  outbox: readonly Outgoing[],
  o: SyncOptions,
  state: SyncState,
): Promise<{ part: number; pushed: number }> {
  const text = outboxText(outbox);
  for (let attempt = 1; ; attempt++) {
    const w = appendOwn(repo.dir, state.writer, state.part ?? 1, text, o.name);
    const message = `aish memory: ${o.name || state.writer} +${outbox.length}`;
    const r = await repo.commitAndPush(base, [relative(repo.dir, w.path).split(sep).join('/')], message);
    if (r === 'pushed') return { part: w.part, pushed: statSync(w.path).size };
    if (attempt >= PUSH_TRIES)
      throw new AishError(`memory sync: the remote kept moving (${PUSH_TRIES} tries) — run aish memory sync again`);
    base = await repo.fetch();
    await repo.checkout(base);
  }
}

/** Note in the ledger what a pushed record means. */
function learn(ledger: Ledger, r: Outgoing, writer: string): void {
  if (r.kind === 'forget') {
    ledger.other(r.uid);
    ledger.forget(r.target_uid);
  } else if (r.kind === 'pin' || r.kind === 'unpin') {
    ledger.other(r.uid);
    if (ledger.pinWins(r.target_uid, r.hlc, writer)) ledger.pin(r.target_uid, { hlc: r.hlc, writer, on: r.kind === 'pin' });
  } else ledger.item(r.uid, r.local ?? 0, 'replaces' in r ? r.replaces : undefined);
}

/** Forget again, here only, items a stale copy brought back after the repository forgot them (rare: a full read is fine). */
async function reforget(file: string, items: ReadonlyArray<{ id: number }>, notice: (t: string) => void, o: SyncOptions): Promise<void> {
  const store = MemoryStore.open(file, { notice, ...(o.lock && { lock: o.lock }), ...(o.now && { now: o.now }) });
  await store.forgetMany(items.map((it) => it.id));
}
