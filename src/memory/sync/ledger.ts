/**
 * The ledger: what this store knows the sync repository holds, one short line per fact, appended
 * and fsynced after the fact is true (a record pushed, a record received into memory.jsonl):
 *
 *   i <uid> <local id> [<replaced uid>]   an item (local id 0: not in this store, e.g. forgotten first)
 *   x <uid>                                a forget, pin or unpin record
 *   f <uid>                                an item forgotten (by any writer)
 *   p <uid> <hlc> <writer> pin|unpin       the pin decision that wins for an item so far
 *
 * The log (`sync/ledger`) holds the facts since they were last folded into the snapshot
 * (`sync/ledger.snap`, sorted, looked up by binary search): each sync reads the short log and a few
 * lines of the snapshot, not every fact. A torn or unknown log line is ignored: every fact is found
 * again from memory.jsonl or the repository when it is missing.
 */
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError, errnoCode } from '../../util/errors';
import { appendWholeLines, describeFsError } from '../../util/fs-safe';
import { LedgerSnapshot, type SnapEntry } from './ledger-snapshot';

export interface PinState {
  hlc: string;
  writer: string;
  on: boolean;
}

interface ItemFact {
  id: number;
  replaces?: string;
}

/** The log is folded into the snapshot when it has more lines than this. */
const FOLD_AT = 4096;

function parseItem(v: string | undefined): ItemFact | undefined {
  if (v === undefined) return undefined;
  const [id, replaces] = v.split(' ');
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 0) return undefined;
  return replaces ? { id: n, replaces } : { id: n };
}

function parsePin(v: string | undefined): PinState | undefined {
  const [hlc, writer, on] = v?.split(' ') ?? [];
  return hlc && writer && (on === 'pin' || on === 'unpin') ? { hlc, writer, on: on === 'pin' } : undefined;
}

export class Ledger {
  private readonly logItems = new Map<string, ItemFact>();
  private readonly logOthers = new Set<string>();
  private readonly logForgotten = new Set<string>();
  private readonly logPins = new Map<string, PinState>();
  private readonly logReplacers = new Map<string, string[]>();
  private pending: string[] = [];
  private snap: LedgerSnapshot;
  /** Every snapshot fact is in the maps too (preload): no lookup reads the file. */
  private whole = false;

  private constructor(
    readonly path: string,
    private readonly snapPath: string,
  ) {
    this.snap = LedgerSnapshot.open(snapPath);
  }

  /** The ledger at `path`; its log is folded into the snapshot first when it has grown long. */
  static load(path: string): Ledger {
    let l = new Ledger(path, `${path}.snap`);
    const lines = readLog(path);
    for (const line of lines) l.apply(line.split(' '));
    if (lines.length > FOLD_AT) {
      l.fold();
      l = new Ledger(path, `${path}.snap`);
    }
    return l;
  }

  private apply(w: string[]): void {
    const [tag, uid] = w;
    if (!uid) return;
    if (tag === 'i') {
      const it = parseItem(w.slice(2).join(' '));
      if (!it) return;
      this.logItems.set(uid, it);
      if (it.replaces) this.logReplacers.set(it.replaces, [...(this.logReplacers.get(it.replaces) ?? []), uid]);
    } else if (tag === 'x') this.logOthers.add(uid);
    else if (tag === 'f') this.logForgotten.add(uid);
    else if (tag === 'p') {
      const p = parsePin(w.slice(2).join(' '));
      if (p) this.logPins.set(uid, p);
    }
  }

  private note(w: string[]): void {
    this.apply(w);
    this.pending.push(w.join(' '));
  }

  /** Read the whole snapshot into memory, for a pass that looks up every record of the store (a full read of memory.jsonl). */
  preload(): void {
    if (this.whole) return;
    for (const e of this.snap.entries()) {
      const w = [e.tag, e.key, ...(e.value ? e.value.split(' ') : [])];
      // The log is newer than the snapshot: its facts stay.
      if (e.tag === 'i' && this.logItems.has(e.key)) continue;
      if (e.tag === 'p' && this.logPins.has(e.key)) continue;
      if (e.tag === 'r') this.logReplacers.set(e.key, [...(this.logReplacers.get(e.key) ?? []), e.value]);
      else this.apply(w);
    }
    this.whole = true;
  }

  private snapFind(tag: string, uid: string): string | undefined {
    return this.whole ? undefined : this.snap.find(tag, uid);
  }

  // ---- what is known ----

  itemOf(uid: string): ItemFact | undefined {
    return this.logItems.get(uid) ?? parseItem(this.snapFind('i', uid));
  }

  hasItem(uid: string): boolean {
    return this.itemOf(uid) !== undefined;
  }

  isForgotten(uid: string): boolean {
    return this.logForgotten.has(uid) || this.snapFind('f', uid) !== undefined;
  }

  pinOf(uid: string): PinState | undefined {
    return this.logPins.get(uid) ?? parsePin(this.snapFind('p', uid));
  }

  /** Items (uids) that replace `uid`. */
  replacers(uid: string): string[] {
    return [...new Set([...(this.logReplacers.get(uid) ?? []), ...(this.whole ? [] : this.snap.findAll('r', uid))])];
  }

  knows(uid: string): boolean {
    return this.hasItem(uid) || this.logOthers.has(uid) || this.snapFind('x', uid) !== undefined;
  }

  /** Whether (hlc, writer) is later than the pin decision known for `uid`. */
  pinWins(uid: string, hlc: string, writer: string): boolean {
    const cur = this.pinOf(uid);
    return !cur || hlc > cur.hlc || (hlc === cur.hlc && writer > cur.writer);
  }

  // ---- new facts ----

  item(uid: string, id: number, replaces?: string): void {
    this.note(replaces ? ['i', uid, String(id), replaces] : ['i', uid, String(id)]);
  }

  other(uid: string): void {
    this.note(['x', uid]);
  }

  forget(uid: string): void {
    if (!this.isForgotten(uid)) this.note(['f', uid]);
  }

  pin(uid: string, p: PinState): void {
    this.note(['p', uid, p.hlc, p.writer, p.on ? 'pin' : 'unpin']);
  }

  /** Write the facts noted since the last flush: whole lines, fsynced. */
  flush(): void {
    if (this.pending.length === 0) return;
    let fd: number | undefined;
    try {
      fd = openSync(this.path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
      appendWholeLines(fd, this.pending.join('\n') + '\n');
    } catch (err) {
      throw new AishError(`cannot write ${this.path}: ${describeFsError(err)}`);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.pending = [];
  }

  /**
   * Fold the log into a new snapshot, then empty the log. Stopped in between, the log's facts are
   * in both: the same facts, which the next fold writes once.
   */
  private fold(): void {
    const items = new Map<string, ItemFact>();
    const others = new Set<string>();
    const forgotten = new Set<string>();
    const pins = new Map<string, string>();
    for (const e of this.snap.entries()) {
      if (e.tag === 'i') {
        const it = parseItem(e.value);
        if (it) items.set(e.key, it);
      } else if (e.tag === 'x') others.add(e.key);
      else if (e.tag === 'f') forgotten.add(e.key);
      else if (e.tag === 'p') pins.set(e.key, e.value);
    }
    for (const [k, v] of this.logItems) items.set(k, v);
    for (const k of this.logOthers) others.add(k);
    for (const k of this.logForgotten) forgotten.add(k);
    for (const [k, p] of this.logPins) pins.set(k, `${p.hlc} ${p.writer} ${p.on ? 'pin' : 'unpin'}`);
    const out: SnapEntry[] = [];
    for (const [key, it] of items) {
      out.push({ tag: 'i', key, value: it.replaces ? `${it.id} ${it.replaces}` : String(it.id) });
      if (it.replaces) out.push({ tag: 'r', key: it.replaces, value: key });
    }
    for (const key of others) out.push({ tag: 'x', key, value: '' });
    for (const key of forgotten) out.push({ tag: 'f', key, value: '' });
    for (const [key, value] of pins) out.push({ tag: 'p', key, value });
    this.snap.close();
    LedgerSnapshot.write(this.snapPath, out);
    writeFileAtomicSync(this.path, '', { mode: 0o600 });
  }
}

function readLog(path: string): string[] {
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return [];
    throw new AishError(`cannot read ${path}: ${describeFsError(err)}`);
  }
}
