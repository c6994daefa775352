/**
 * `sync/ledger.snap`: the ledger's facts folded into one sorted file of fixed-width lines, looked up
 * by binary search with a read of one line per probe — so a sync of ten records reads tens of
 * lines, not the whole ledger, at any store size. Written whole (atomically) when the ledger's log
 * has grown past a threshold (ledger.ts).
 *
 * Line: `<tag> <key, 40 wide> <value, 84 wide>\n`, 128 bytes, sorted by tag then key. Tags as in the
 * log (i, x, f, p) plus `r`: key the replaced uid, value one item that replaces it.
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { errnoCode } from '../../util/errors';
import { readAt } from '../../util/fs-safe';

const LINE = 128;
const KEY = 40;
const VALUE = LINE - KEY - 4;

export interface SnapEntry {
  tag: string;
  key: string;
  value: string;
}

const sortKey = (tag: string, key: string): string => `${tag} ${key.padEnd(KEY)}`;

export class LedgerSnapshot {
  private constructor(
    private readonly fd: number | null,
    readonly lines: number,
  ) {}

  static open(path: string): LedgerSnapshot {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return new LedgerSnapshot(null, 0);
      throw err;
    }
    const size = fstatSync(fd).size;
    // A file of another shape is not used (the log still has every fact written since).
    if (size % LINE !== 0) {
      closeSync(fd);
      return new LedgerSnapshot(null, 0);
    }
    return new LedgerSnapshot(fd, size / LINE);
  }

  private line(i: number): string {
    return readAt(this.fd!, i * LINE, LINE).toString('latin1');
  }

  /** Index of the first line whose sort key is ≥ `want`. */
  private lowerBound(want: string): number {
    let lo = 0;
    let hi = this.lines;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.line(mid).slice(0, KEY + 2) < want) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The value of the first line for (tag, key). */
  find(tag: string, key: string): string | undefined {
    return this.findAll(tag, key, 1)[0];
  }

  findAll(tag: string, key: string, limit = Infinity): string[] {
    if (this.fd === null || key.length > KEY) return [];
    const want = sortKey(tag, key);
    const out: string[] = [];
    for (let i = this.lowerBound(want); i < this.lines && out.length < limit; i++) {
      const l = this.line(i);
      if (l.slice(0, KEY + 2) !== want) break;
      out.push(l.slice(KEY + 3, LINE - 1).trimEnd());
    }
    return out;
  }

  /** Every entry, in order (for folding the log in). */
  *entries(): Generator<SnapEntry> {
    const chunk = 4096;
    for (let at = 0; at < this.lines; at += chunk) {
      const buf = readAt(this.fd!, at * LINE, Math.min(chunk, this.lines - at) * LINE).toString('latin1');
      for (let k = 0; k < buf.length; k += LINE) {
        const l = buf.slice(k, k + LINE);
        yield { tag: l[0]!, key: l.slice(2, 2 + KEY).trimEnd(), value: l.slice(KEY + 3, LINE - 1).trimEnd() };
      }
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
  }

  /** Write `entries` (any order; keys and values ASCII, within their widths) as a new snapshot. */
  static write(path: string, entries: SnapEntry[]): void {
    const lines = entries
      .filter((e) => e.key.length <= KEY && e.value.length <= VALUE && /^[\x21-\x7e]*$/.test(e.key))
      .map((e) => `${sortKey(e.tag, e.key)} ${e.value.padEnd(VALUE)}\n`)
      .sort();
    writeFileAtomicSync(path, lines.join(''), { mode: 0o600 });
  }
}
