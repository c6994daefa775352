/**
 * Every whole-file rewrite aish makes, with a disk that fills part-way through the write (a short
 * write, then ENOSPC): compact, import, memory export, session export, :save and the trimming of
 * input history. Each keeps the original byte-identical, leaves no temp file and says so in one
 * line. The real full disk is in test/e2e/memory-rewrite-disk-full.test.ts (needs root).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { writeExport } from '../../src/sessions/export-file';
import { InputHistory } from '../../src/sessions/input-history';
import { SessionLog } from '../../src/sessions/session-log';
import { failWritesContaining } from '../helpers/fail-writes';
import { tmpDir } from '../helpers/tmp';

const MARK = 'MARK';

/** Run `fn` with writes of MARK-bearing data cut short after 4 KiB; the error it throws. */
async function failing(fn: () => unknown): Promise<Error> {
  const undo = failWritesContaining(MARK, 4096);
  try {
    await fn();
  } catch (err) {
    return err as Error;
  } finally {
    undo();
  }
  throw new Error('the write should have failed');
}

/** A store with enough items that a rewrite is far over 4 KiB, the newest one carrying MARK. */
async function bigStore(): Promise<{ dir: string; path: string; store: MemoryStore }> {
  const dir = tmpDir();
  const path = join(dir, 'memory.jsonl');
  const store = MemoryStore.open(path);
  for (let i = 0; i < 30; i++) await store.add('fact', `item ${i} ${'words '.repeat(40)}`);
  await store.add('fact', `${MARK} the newest`);
  await store.forget(3);
  return { dir, path, store };
}

describe('a rewrite cut short by a full disk keeps the original', () => {
  it('compact', async () => {
    const { dir, path, store } = await bigStore();
    const before = readFileSync(path);
    const err = await failing(() => store.compact());
    expect(err.message).toBe(`cannot compact ${path}: no space left on device — the file is unchanged`);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['memory.jsonl']);
  });

  it('import', async () => {
    const { dir, path, store } = await bigStore();
    const before = readFileSync(path);
    const err = await failing(() => store.importItems([{ kind: 'fact', content: `${MARK} imported` }]));
    expect(err.message).toBe(`cannot write ${path}: no space left on device — nothing imported`);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['memory.jsonl']);
  });

  it('a session export over an older one', async () => {
    const dir = tmpDir();
    const file = join(dir, 'chat.md');
    writeFileSync(file, 'older\n');
    const err = await failing(() => writeExport(file, `${MARK} ${'x'.repeat(20_000)}`, { force: true }));
    expect(err.message).toBe(`cannot write ${file}: no space left on device — nothing was changed`);
    expect(readFileSync(file, 'utf8')).toBe('older\n');
    expect(readdirSync(dir)).toEqual(['chat.md']);
  });

  it(':save over an older save', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'keep.jsonl'), 'older save\n');
    const log = SessionLog.create(dir, {}, new Date('2026-05-13T19:01:01Z'));
    log.append({ role: 'user', content: `${MARK} ${'y'.repeat(20_000)}` });
    const undo = failWritesContaining(`${MARK} ${'y'.repeat(100)}`, 4096);
    let err: Error | undefined;
    try {
      // the log's own append happened above; only the copy is cut short
      log.saveAs('keep');
    } catch (e) {
      err = e as Error;
    } finally {
      undo();
      log.close();
    }
    expect(err?.message).toBe('cannot save session "keep": no space left on device — nothing was changed');
    expect(readFileSync(join(dir, 'keep.jsonl'), 'utf8')).toBe('older save\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('input history: a failed trim keeps every line (history never breaks the prompt)', () => {
    const path = join(tmpDir(), 'input-history');
    const line = (i: number) => JSON.stringify(`${MARK} prompt ${i}`) + '\n';
    writeFileSync(path, Array.from({ length: 1000 }, (_, i) => line(i)).join(''), { mode: 0o600 });
    const h = new InputHistory(path);
    for (let i = 1000; i < 2000; i++) h.add(`${MARK} prompt ${i}`);
    const before = readFileSync(path, 'utf8');
    expect(before.split('\n')).toHaveLength(2001);
    // the next entry passes twice the limit: the file is rewritten to the last 1000, and that fails
    const undo = failWritesContaining(line(1999) + line(2000), 100);
    try {
      h.add(`${MARK} prompt 2000`);
    } finally {
      undo();
    }
    expect(readFileSync(path, 'utf8')).toBe(before + line(2000));
    expect(readdirSync(join(path, '..'))).toEqual(['input-history']);
    // the next one trims for real
    h.add(`${MARK} prompt 2001`);
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(1001);
  });
});
