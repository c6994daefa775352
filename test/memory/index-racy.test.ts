/**
 * An index built within RACY_MS of memory.jsonl's last change records the checksum of the bytes it
 * covers (racyCrc): a same-tick edit could leave size and timestamps as recorded. Each start checks
 * those bytes — until one checks them once the window has passed: then the index is written again
 * without racyCrc, and later starts trust the timestamps as for any index. The clock is moved on
 * with fake Date (the file's own timestamps cannot be put back).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexBackground } from '../../src/memory/index/background';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { PREAMBLE, RACY_MS } from '../../src/memory/index/layout';
import { IndexReader } from '../../src/memory/index/reader';
import { indexPath, Sidecar } from '../../src/memory/index/sidecar';
import { tmpDir } from '../helpers/tmp';

const item = (id: number) => JSON.stringify({ id, ts: `2026-01-0${id}T00:00:00Z`, kind: 'fact', content: `note ${id} about alpha` });

/** A memory.jsonl just written, and its index built at once (so racily). */
function racyIndex(): string {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, [1, 2, 3].map(item).join('\n') + '\n');
  const ix = new MemoryIndex(path);
  ix.refresh();
  ix.close();
  return path;
}

/** The header on disk, as the next start reads it. */
function header(path: string) {
  const side = Sidecar.open(path);
  expect(side).not.toBeNull();
  side!.close();
  return side!.header;
}

/** A fresh start's view: the [background] it reads and whether it had to build. */
function start(path: string): { contents: string[]; builds: number } {
  const ix = new MemoryIndex(path);
  const contents = ix.read((x) => indexBackground(x, 100_000, '/')).items.map((i) => i.content);
  ix.close();
  return { contents, builds: ix.builds };
}

/** The clock at `ms` after memory.jsonl's last change as the index recorded it. */
function at(path: string, ms: number): void {
  const { mtime, ctime } = header(path).file;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.max(mtime, ctime) + ms);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a racily built index', () => {
  it('keeps racyCrc while the window lasts, and loses it after a start checks its bytes past the window', () => {
    const path = racyIndex();
    const built = header(path);
    expect(built.racyCrc).toBeDefined();
    at(path, RACY_MS / 2);
    const first = start(path);
    expect(first.builds).toBe(0);
    // Within the window: checked, used, and still racy.
    expect(header(path).racyCrc).toBe(built.racyCrc);

    at(path, RACY_MS + 1000);
    const settled = start(path);
    expect(settled).toEqual(first);
    const h = header(path);
    expect(h.racyCrc).toBeUndefined();
    // The same index otherwise: same sections, same length, same cursor.
    const { racyCrc: _gone, ...rest } = built;
    expect(h).toEqual(rest);
    // And a reader that never builds (list --json) takes it as it is.
    const reader = new IndexReader(path);
    expect(reader.refresh()).toBe(true);
    expect(reader.size).toBe(3);
    reader.close();
  });

  it('is not settled when the bytes it covers differ: it is built again, racy or not as the file is', () => {
    const path = racyIndex();
    const built = header(path);
    // The bytes no longer match the checksum (as after a same-size edit in the same clock tick).
    const file = indexPath(path);
    const bytes = readFileSync(file);
    const len = bytes.readUInt32LE(8);
    const text = JSON.stringify({ ...built, racyCrc: (built.racyCrc! + 1) >>> 0 }).padEnd(len, ' ');
    bytes.write(text, PREAMBLE, 'utf8');
    writeFileSync(file, bytes);

    at(path, RACY_MS + 1000);
    const r = start(path);
    expect(r.builds).toBe(1);
    expect(r.contents).toHaveLength(3);
    // Rebuilt long after the file's last change: no checksum needed.
    expect(header(path).racyCrc).toBeUndefined();
  });

  it('a reader that never builds drops an index whose bytes do not match, and leaves the file alone', () => {
    const path = racyIndex();
    const built = header(path);
    const file = indexPath(path);
    const bytes = readFileSync(file);
    const len = bytes.readUInt32LE(8);
    bytes.write(JSON.stringify({ ...built, racyCrc: (built.racyCrc! + 1) >>> 0 }).padEnd(len, ' '), PREAMBLE, 'utf8');
    writeFileSync(file, bytes);

    at(path, RACY_MS + 1000);
    const reader = new IndexReader(path);
    expect(reader.refresh()).toBe(false);
    reader.close();
    expect(readFileSync(file)).toEqual(bytes);
  });

  it('a running reader that settled it does not checksum again when another aish appends (the append is its tail)', () => {
    const path = racyIndex();
    at(path, RACY_MS + 1000);
    const ix = new MemoryIndex(path);
    ix.refresh();
    expect(header(path).racyCrc).toBeUndefined();
    // The reader's own header is settled too; before, every later change re-read the whole file
    // for its checksum and copied the index to settle it once more.
    expect(ix.header?.racyCrc).toBeUndefined();
    writeFileSync(path, readFileSync(path, 'utf8') + item(4) + '\n');
    ix.refresh();
    expect(ix.builds).toBe(0);
    expect(ix.size).toBe(4);
    expect(ix.header?.racyCrc).toBeUndefined();
    ix.close();
  });
});
