/**
 * The index never answers for a memory.jsonl that changed under it: a hand edit of the same size
 * with the mtime put back, an index of another version, a truncated, damaged or missing index —
 * each is rebuilt (or checked byte for byte), and the answers are those of a full read.
 */
import { appendFileSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { FileCursor } from '../../src/memory/log/file-cursor';
import { indexBackground } from '../../src/memory/index/background';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { FORMAT_VERSION } from '../../src/memory/index/layout';
import { indexPath } from '../../src/memory/index/sidecar';
import { MemorySession } from '../../src/memory/session';
import { tmpDir } from '../helpers/tmp';

const item = (id: number, content: string) =>
  JSON.stringify({ id, ts: `2026-01-${String(id).padStart(2, '0')}T00:00:00Z`, kind: 'fact', content });

const MTIME = 1_700_000_000;

function file(n = 20): string {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, Array.from({ length: n }, (_, i) => item(i + 1, `note number ${i + 1} about alpha`)).join('\n') + '\n');
  // Whole seconds: JavaScript cannot put back a timestamp with nanoseconds exactly (touch -r can).
  utimesSync(path, MTIME, MTIME);
  return path;
}

/** Contents of [background] as the index gives it, in a fresh reader (as the next aish would). */
function background(path: string): { contents: string[]; builds: number } {
  const ix = new MemoryIndex(path);
  const contents = ix.read((x) => indexBackground(x, 100_000, '/')).items.map((i) => i.content);
  ix.close();
  return { contents, builds: ix.builds };
}

/** Until the file system's clock has moved past the file's last change (the next write gets a later ctime). */
function afterClockTick(path: string): void {
  const probe = `${path}.tick`;
  const last = statSync(path).ctimeMs;
  do writeFileSync(probe, 'x');
  while (statSync(probe).ctimeMs <= last);
}

/** Replace `from` by `to` (same length) in place, same inode, and put the mtime (and atime) back. */
function editInPlaceKeepingMtime(path: string, from: string, to: string): void {
  const before = statSync(path);
  const text = readFileSync(path, 'utf8');
  expect(to.length).toBe(from.length);
  writeFileSync(path, text.replace(from, to));
  utimesSync(path, MTIME, MTIME);
  const after = statSync(path);
  expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
}

describe('memory.jsonl changed under its index', () => {
  it('a same-size edit in the middle with the mtime put back is seen by the file cursor (ctime)', () => {
    const path = file(200);
    const cursor = new FileCursor();
    const r = cursor.read(path);
    expect(r.kind).toBe('fresh');
    if (r.kind === 'fresh') cursor.commit(r.fresh.length, 200);
    afterClockTick(path);
    // Far from the end: the bytes the cursor keeps from before its offset do not cover it.
    editInPlaceKeepingMtime(path, 'note number 7 about', 'NOTE NUMBER 7 ABOUT');
    expect(cursor.read(path).kind).toBe('rewritten');
  });

  it('a same-size edit with the mtime put back reaches [background] at the next start, and at once after :memory inject', async () => {
    const path = file();
    expect(background(path)).toEqual({ contents: expect.arrayContaining(['note number 7 about alpha']) as unknown, builds: 1 });
    afterClockTick(path);
    editInPlaceKeepingMtime(path, 'note number 7 about alpha', 'note number 7 about OMEGA');
    const next = background(path);
    expect(next.builds).toBe(1);
    expect(next.contents).toContain('note number 7 about OMEGA');
    expect(next.contents).not.toContain('note number 7 about alpha');

    // A session that is running: a hand edit, then :memory inject (reselect(true)).
    const session = new MemorySession(DEFAULT_CONFIG, path, { cwd: () => '/' }, { notice: () => {}, changed: () => {} });
    await session.ready();
    editInPlaceKeepingMtime(path, 'note number 3 about alpha', 'note number 3 about GAMMA');
    session.reselect(true);
    expect(session.injected.map((i) => i.content)).toContain('note number 3 about GAMMA');
    session.close();
  });

  it('an edit right after the index was built is seen (by its timestamps, or by the byte check an index built racily keeps)', () => {
    const path = file();
    background(path); // built within RACY_MS of the file's last change: it keeps a CRC
    editInPlaceKeepingMtime(path, 'note number 9 about alpha', 'note number 9 about DELTA');
    expect(background(path).contents).toContain('note number 9 about DELTA');
  });

  it('an index of another version, a truncated, a damaged or a missing one is rebuilt, never trusted', () => {
    const path = file();
    const want = background(path).contents;
    const side = indexPath(path);
    const good = readFileSync(side);

    writeFileSync(side, Buffer.from(good.toString('latin1').replace(`"v":${FORMAT_VERSION},`, `"v":${FORMAT_VERSION + 7},`), 'latin1'));
    expect(background(path)).toEqual({ contents: want, builds: 1 });

    truncateSync(side, Math.floor(good.length / 2));
    expect(background(path)).toEqual({ contents: want, builds: 1 });

    writeFileSync(side, 'not an index at all');
    expect(background(path)).toEqual({ contents: want, builds: 1 });

    // A header length past the end of the file: not an index, built again.
    const long = Buffer.from(good);
    long.writeUInt32LE(0xffffffff, 8);
    writeFileSync(side, long);
    expect(background(path)).toEqual({ contents: want, builds: 1 });

    // Valid header, wrong item offsets: the item read from memory.jsonl is not the one named.
    const bad = Buffer.from(good);
    const at = (JSON.parse(bad.toString('utf8', 16, 16 + bad.readUInt32LE(8))) as { sections: { offs: [number, number] } }).sections.offs;
    bad.fill(0, at[0], at[0] + at[1]);
    writeFileSync(side, bad);
    expect(background(path)).toEqual({ contents: want, builds: 1 });

    writeFileSync(side, good);
    expect(background(path)).toEqual({ contents: want, builds: 0 });
  });

  it('items appended by others are laid over the index; a rewrite (compaction, an editor) rebuilds it', () => {
    const path = file(5);
    background(path);
    appendFileSync(path, item(6, 'appended by another aish') + '\n');
    expect(background(path)).toEqual({ contents: expect.arrayContaining(['appended by another aish']) as unknown, builds: 0 });
    writeFileSync(path, item(7, 'the whole file rewritten') + '\n');
    expect(background(path)).toEqual({ contents: ['the whole file rewritten'], builds: 1 });
  });
});
