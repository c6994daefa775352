/**
 * What `aish memory import` reads: regular files only (refused before a byte is read), at most
 * IMPORT_MAX_BYTES, lines over IMPORT_MAX_LINE_BYTES left out and named; and what an imported
 * memory.jsonl's forget and pin records do (applied within the file; the rest named).
 */
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { IMPORT_MAX_BYTES, IMPORT_MAX_LINE_BYTES, readImportFile } from '../../src/memory/porting/import-read';
import { parseImport } from '../../src/memory/porting/transfer';
import { UsageError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

const item = (id: number, content: string, more: object = {}) =>
  JSON.stringify({ id, ts: '2026-05-13T19:01:01Z', kind: 'fact', content, ...more });
const rec = (id: number, kind: string, target: number) => JSON.stringify({ id, ts: '2026-05-13T19:02:01Z', kind, target });

describe('readImportFile: what is not a file is refused before reading', () => {
  it.each([
    ['/dev/zero', 'a character device'],
    ['/dev/null', 'a character device'],
  ])('%s', (file, kind) => {
    expect(() => readImportFile(file)).toThrow(
      new UsageError(`cannot import ${file}: it is ${kind}, not a file — give an export or a memory.jsonl`),
    );
  });

  it('a directory', () => {
    const dir = join(tmpDir(), 'dir.jsonl');
    mkdirSync(dir);
    expect(() => readImportFile(dir)).toThrow(`cannot import ${dir}: it is a directory, not a file`);
  });

  it('a socket', async () => {
    const path = join(tmpDir(), 'sock');
    const server = createServer();
    await new Promise<void>((r) => server.listen(path, r));
    onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
    expect(() => readImportFile(path)).toThrow(`cannot import ${path}: it is a socket, not a file`);
  });

  it('a missing file: one line, exit 1 (not a usage error)', () => {
    const path = join(tmpDir(), 'nope.jsonl');
    let err: unknown;
    try {
      readImportFile(path);
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toBe(`cannot read ${path}: no such file or directory`);
    expect((err as { exitCode: number }).exitCode).toBe(1);
  });

  it('a file over the limit, by its size, before reading it', () => {
    const path = join(tmpDir(), 'huge.jsonl');
    writeFileSync(path, '');
    truncateSync(path, IMPORT_MAX_BYTES + 1); // sparse: nothing to read, only its size
    expect(() => readImportFile(path)).toThrow(
      `cannot import ${path}: it is ${IMPORT_MAX_BYTES + 1} bytes, over the 16 MiB an import may hold — split it`,
    );
    writeFileSync(path, Buffer.alloc(IMPORT_MAX_BYTES, '\n')); // exactly the limit: read
    expect(readImportFile(path).text).toHaveLength(IMPORT_MAX_BYTES);
  });
});

describe('readImportFile: long lines', () => {
  it('are left out and named by line number; the others keep their numbers', () => {
    const path = join(tmpDir(), 'long.jsonl');
    const long = item(2, 'word '.repeat(IMPORT_MAX_LINE_BYTES / 5));
    const edge = item(4, 'x'.repeat(IMPORT_MAX_LINE_BYTES - item(4, '').length)); // exactly the limit
    writeFileSync(path, [item(1, 'first'), long, item(3, 'third'), edge, long].join('\n'));
    const r = readImportFile(path);
    expect(r.problems).toEqual([
      `2: ${long.length} bytes, over the 64 KiB one line may hold — not imported`,
      `5: ${long.length} bytes, over the 64 KiB one line may hold — not imported`,
    ]);
    expect(r.text.split('\n')).toEqual([item(1, 'first'), '', item(3, 'third'), edge, '']);
    expect(parseImport(r.text).items.map((i) => i.content.slice(0, 5))).toEqual(['first', 'third', 'xxxxx']);
  });
});

describe('an imported memory.jsonl: forget and pin records', () => {
  it('apply within the file, and every line they leave out is named', () => {
    const text = [
      item(1, 'forgotten there'),
      item(2, 'pinned there'),
      item(3, 'plain'),
      rec(4, 'forget', 1),
      rec(5, 'pin', 2),
      rec(6, 'forget', 99),
      rec(7, 'pin', 42),
      rec(8, 'unpin', 43),
      '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
      item(10, 'nested', { tags: [[['deep']]] }),
    ].join('\n');
    const r = parseImport(text + '\n');
    expect(r.items.map((i) => [i.content, i.pinned === true])).toEqual([
      ['pinned there', true],
      ['plain', false],
    ]);
    expect(r.problems.sort((a, b) => parseInt(a) - parseInt(b))).toEqual([
      '1: item 1 not imported: line 4 of this file forgets it',
      '6: forget of id 99, which no item in this file has — skipped (ids differ between memories)',
      '7: pin of id 42, which no item in this file has — skipped (ids differ between memories)',
      '8: unpin of id 43, which no item in this file has — skipped (ids differ between memories)',
      '9: not a JSON object',
      '10: tags must be a list of strings',
    ]);
  });
});
