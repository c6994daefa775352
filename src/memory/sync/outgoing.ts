/**
 * What this store has to send: the records appended to memory.jsonl since the last sync (all of
 * it after a rewrite: a compaction, an import, a hand edit), less what the repository already
 * holds, what came from it, and what never leaves the machine:
 * - private items, and items whose text matches the secret rules (refused, never redacted into git);
 * - items scoped to a path that names no project identity (a path means nothing on another machine);
 * - an item forgotten before it was ever sent (nor its tombstone: it never leaves);
 * - forget and pin records of items that never left.
 */
import { existsSync } from 'node:fs';
import { redactSecrets } from '../../util/secrets/redact';
import { FileCursor, type CursorState } from '../log/file-cursor';
import { laterStamp, stampedAfter } from '../log/hlc';
import { uidOf } from '../log/identity';
import { ingestFile } from '../log/ingest';
import { projectIdentity } from '../project/project-identity';
import { isPathScope } from '../scope-format';
import { MemoryState } from '../log/state';
import type { MemoryItem } from '../types';
import type { Ledger } from './ledger';
import type { Outgoing } from './outbox';
import { wireItem, wireMark } from './wire';

export interface HeldBack {
  private: number;
  secret: number;
  local: number;
}

export interface Staged {
  /** The outbox after this step: records waiting to be pushed, in order. */
  outbox: Outgoing[];
  /** Uids of every item read from memory.jsonl in this step. */
  localUids: Set<string>;
  cursor: CursorState;
  /** The highest stamp read so far ('' when none): what a later step's new records must pass. */
  hlc: string;
  held: HeldBack;
  /** Active items the repository says were forgotten (a stale copy brought them back): forget them again. */
  reforget: MemoryItem[];
}

interface Flags {
  private?: unknown;
  via?: unknown;
  replaces?: unknown;
}

/**
 * Read memory.jsonl from `from` (null: the start; `fromHlc`: the highest stamp before it) and add
 * what must be sent to `outbox`.
 */
export function stage(memoryPath: string, from: CursorState | null, ledger: Ledger, outbox: readonly Outgoing[], fromHlc?: string): Staged {
  let cursor = from ? FileCursor.restore(from) : new FileCursor();
  let state = new MemoryState();
  let r = ingestFile(state, cursor, memoryPath);
  const whole = !from || r === 'rewritten' || (r !== 'missing' && mayRepeat(state, fromHlc, ledger));
  if (from && whole) {
    cursor = new FileCursor();
    state = new MemoryState();
    r = ingestFile(state, cursor, memoryPath);
  }
  // A read of the whole file looks up every record: the ledger is read whole once instead.
  if (whole) ledger.preload();
  if (r === 'missing') cursor = new FileCursor();
  state.rollbackProvisional(); // only whole lines: the cursor stops before an unfinished one

  const held: HeldBack = { private: 0, secret: 0, local: 0 };
  const out = [...outbox];
  const earlier = new Set(outbox.map((w) => w.uid));
  const queued = new Map(out.map((w, i) => [w.uid, i]));
  const sendable = (uid: string) => ledger.hasItem(uid) || queued.has(uid);
  let byId: Map<number, string> | null = null;
  // Only records written before uids existed lack target_uid: the map is built for them alone.
  const uidOfLocal = (id: number) => (byId ??= new Map(state.itemsInFileOrder().map((it) => [it.id, uidOf(it)]))).get(id);
  const reforget: MemoryItem[] = [];
  const scopes = new Map<string, string | null>();
  const localUids = new Set<string>();
  const push = (w: Outgoing) => {
    queued.set(w.uid, out.length);
    out.push(w);
  };

  for (const it of state.itemsInFileOrder()) {
    const f = it as MemoryItem & Flags;
    const uid = uidOf(it);
    localUids.add(uid);
    const received = typeof f.via === 'string';
    // Received by a sync that was stopped before it wrote the ledger.
    if (received && !ledger.hasItem(uid)) ledger.item(uid, it.id, typeof f.replaces === 'string' ? f.replaces : undefined);
    if (ledger.hasItem(uid)) {
      if (ledger.isForgotten(uid) && state.isActive(it.id)) reforget.push(it);
      continue;
    }
    if (queued.has(uid) || !state.isActive(it.id)) continue;
    if (f.private === true) held.private++;
    else if (redactSecrets(it.content).found.length > 0) held.secret++;
    else {
      const scope = it.scope === undefined ? undefined : sharedScope(it.scope, scopes);
      if (scope === null) held.local++;
      else push({ ...wireItem(it, scope), local: it.id });
    }
  }

  for (const t of state.forgottenTargets()) {
    const target = t.target_uid ?? uidOfLocal(t.target);
    if (typeof (t as Flags).via === 'string' || !target || ledger.knows(uidOf(t)) || queued.has(uidOf(t))) continue;
    const at = queued.get(target);
    if (at !== undefined && !ledger.hasItem(target) && !earlier.has(target)) {
      // Added and forgotten within this step: neither leaves the machine. (An item in the outbox
      // from before may have reached the remote with a push that was stopped: its forget goes too.)
      out.splice(at, 1);
      queued.clear();
      out.forEach((w, i) => queued.set(w.uid, i));
    } else if (sendable(target) && !ledger.isForgotten(target)) push(wireMark(t, target));
  }

  for (const p of state.pinsByTarget().values()) {
    const target = p.target_uid ?? uidOfLocal(p.target);
    if (typeof (p as Flags).via === 'string' || !target || ledger.knows(uidOf(p)) || queued.has(uidOf(p))) continue;
    if (sendable(target)) push(wireMark(p, target));
  }
  return { outbox: out, cursor: cursor.save(), hlc: laterStamp(fromHlc, state.maxHlc) ?? '', held, reforget, localUids };
}

/**
 * Whether a new record may repeat the uid of one read before (a line copied by hand): then only
 * the whole file says which uid each has (log/uid-copies.ts). aish's own appends are stamped after
 * everything before them (log/hlc.ts); a received item is in the ledger under its own local id.
 */
function mayRepeat(state: MemoryState, fromHlc: string | undefined, ledger: Ledger): boolean {
  if (fromHlc === undefined) return true; // a state written before stamps were kept: read it all once
  return state.itemsInFileOrder().some((it) => {
    const { hlc, via } = it as { hlc?: unknown; via?: unknown };
    if (typeof via === 'string') return (ledger.itemOf(uidOf(it))?.id ?? it.id) !== it.id;
    return !stampedAfter(hlc, fromHlc);
  });
}

/**
 * The scope as other machines know it: a project identity as it is; a path as the identity of the
 * project there (an item taught before identities existed), or null when it has none.
 */
function sharedScope(scope: string, cache: Map<string, string | null>): string | null {
  if (!isPathScope(scope)) return scope;
  if (!cache.has(scope)) {
    const id = existsSync(scope) ? projectIdentity(scope) : undefined;
    const named = id?.found ? id.scopes.find((s) => !isPathScope(s)) : undefined;
    cache.set(scope, named ?? null);
  }
  return cache.get(scope)!;
}
