/**
 * The ledger: what this store knows the sync repository holds, one short line per fact, appended
 * and fsynced after the fact is true (a record pushed, a record received into memory.jsonl):
 *
 *   i <uid> <local id> [<replaced uid>]   an item (local id 0: not in this store, e.g. forgotten first)
 *   x <uid>                                a forget, pin or unpin record
 *   f <uid>                                an item forgotten (by any writer)
 *   p <uid> <hlc> <writer> pin|unpin       the pin decision that wins for an item so far
 *
 * Read whole at each sync (tens of bytes per record); a torn or unknown line is ignored, since
 * every fact is found again from memory.jsonl or the repository when it is missing.
 */
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { AishError, errnoCode } from '../../util/errors';
import { appendWholeLines, describeFsError } from '../../util/fs-safe';

export interface PinState {
  hlc: string;
  writer: string;
  on: boolean;
}

export class Ledger {
  readonly items = new Map<string, { id: number; replaces?: string }>();
  readonly others = new Set<string>();
  readonly forgotten = new Set<string>();
  readonly pins = new Map<string, PinState>();
  private pending: string[] = [];

  private constructor(readonly path: string) {}

  static load(path: string): Ledger {
    const l = new Ledger(path);
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw new AishError(`cannot read ${path}: ${describeFsError(err)}`);
    }
    for (const line of text.split('\n')) l.apply(line.split(' '));
    l.pending = [];
    return l;
  }

  private apply(w: string[]): void {
    const [tag, uid] = w;
    if (!uid) return;
    if (tag === 'i') {
      const id = Number(w[2]);
      if (Number.isSafeInteger(id) && id >= 0) this.items.set(uid, { id, ...(w[3] && { replaces: w[3] }) });
    } else if (tag === 'x') this.others.add(uid);
    else if (tag === 'f') this.forgotten.add(uid);
    else if (tag === 'p' && w[2] && w[3] && (w[4] === 'pin' || w[4] === 'unpin'))
      this.pins.set(uid, { hlc: w[2], writer: w[3], on: w[4] === 'pin' });
  }

  private note(w: string[]): void {
    this.apply(w);
    this.pending.push(w.join(' '));
  }

  item(uid: string, id: number, replaces?: string): void {
    this.note(replaces ? ['i', uid, String(id), replaces] : ['i', uid, String(id)]);
  }

  other(uid: string): void {
    this.note(['x', uid]);
  }

  forget(uid: string): void {
    if (!this.forgotten.has(uid)) this.note(['f', uid]);
  }

  pin(uid: string, p: PinState): void {
    this.note(['p', uid, p.hlc, p.writer, p.on ? 'pin' : 'unpin']);
  }

  /** Whether (hlc, writer) is later than the pin decision known for `uid`. */
  pinWins(uid: string, hlc: string, writer: string): boolean {
    const cur = this.pins.get(uid);
    return !cur || hlc > cur.hlc || (hlc === cur.hlc && writer > cur.writer);
  }

  knows(uid: string): boolean {
    return this.items.has(uid) || this.others.has(uid);
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
}
