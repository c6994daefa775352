/**
 * Whole-file rewrites on a nearly full disk, for real (a tiny tmpfs; needs root, as CI has):
 * write-file-atomic takes a short write for a whole one; every rewrite aish makes (compact, import,
 * memory export, session export) and the inbox's append fail in one line, exit 1, and leave the
 * original byte-identical with no temp file behind. test/util/atomic-write.test.ts injects the same
 * failures everywhere.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from '../../src/util/atomic-write';
import { Checkpoints } from '../../src/checkpoints/checkpoints';
import { Inbox } from '../../src/memory/review/inbox';
import { runAish } from '../helpers/run-cli';
import { canMount, fillTo, tinyTmpfs } from '../helpers/tmpfs';
import { tmpDir } from '../helpers/tmp';

const LEAVE = 16 * 1024; // free bytes left on the disk, as in the report

/** A memory.jsonl of `n` items (~600 bytes each) with a few forgotten, as a long-used file has. */
function memoryFile(n: number): string {
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  for (let i = 1; i <= n; i++)
    lines.push(JSON.stringify({ id: i, ts: '2026-05-13T19:01:01Z', kind: 'fact', content: `item ${i} `.padEnd(600, '.') }));
  let id = n;
  for (const target of [2, 3, 5, 7]) lines.push(JSON.stringify({ id: ++id, ts: '2026-05-13T19:02:01Z', kind: 'forget', target }));
  return lines.join('\n') + '\n';
}

/** A mounted tmpfs holding `files`, then filled to LEAVE bytes free; null (skip) when mounting is refused. */
function fullDisk(files: Record<string, string>): string | null {
  const dir = tinyTmpfs('512k');
  if (!dir) return null;
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
  fillTo(dir, LEAVE);
  return dir;
}

function expectUntouched(dir: string, files: Record<string, string>): void {
  expect(readdirSync(dir).sort()).toEqual([...Object.keys(files), 'filler'].sort());
  for (const [name, text] of Object.entries(files)) expect(readFileSync(join(dir, name), 'utf8')).toBe(text);
}

describe.skipIf(!canMount)('rewrites on a nearly full disk (real tmpfs, needs root)', () => {
  it('write-file-atomic ignores the short write: the truncated file replaces the original', (ctx) => {
    const dir = fullDisk({ 'data.txt': 'the original\n' });
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const path = join(dir, 'data.txt');
    const big = 'x'.repeat(64 * 1024);
    writeFileAtomic.sync(path, big); // no error…
    expect(statSync(path).size).toBeLessThan(big.length); // …and the file is cut short
  });

  it('our writer refuses it: one line, the original byte-identical, no temp file', (ctx) => {
    const files = { 'data.txt': 'the original\n' };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const path = join(dir, 'data.txt');
    expect(() => writeFileAtomicSync(path, 'x'.repeat(64 * 1024), { mode: 0o600 })).toThrow(
      `cannot write ${path}: no space left on device — nothing was changed`,
    );
    expectUntouched(dir, files);
  });

  it('aish memory compact: exit 1, one line, memory.jsonl intact', async (ctx) => {
    const files = { 'memory.jsonl': memoryFile(110) };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const path = join(dir, 'memory.jsonl');
    const r = await runAish(['--data-dir', dir, 'memory', 'compact'], { home: tmpDir() });
    expect(r.stderr).toBe(`aish: cannot compact ${path}: no space left on device — the file is unchanged\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expectUntouched(dir, files);
  });

  it('aish memory import: exit 1, one line, memory.jsonl intact', async (ctx) => {
    const files = { 'memory.jsonl': memoryFile(40) };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const path = join(dir, 'memory.jsonl');
    const src = join(tmpDir(), 'more.jsonl');
    const more = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({ id: i + 1, ts: '2026-05-14T10:00:00Z', kind: 'fact', content: `imported ${i} `.padEnd(900, '-') }),
    );
    writeFileSync(src, more.join('\n') + '\n');
    const r = await runAish(['--data-dir', dir, 'memory', 'import', src], { home: tmpDir() });
    expect(r.stderr).toBe(`aish: cannot write ${path}: no space left on device — nothing imported\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expectUntouched(dir, files);
  });

  it('aish memory export FILE over an older export: exit 1, one line, the older export intact', async (ctx) => {
    const files = { 'memory-export.jsonl': '{"kind":"fact","content":"the older export"}\n' };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const data = tmpDir();
    writeFileSync(join(data, 'memory.jsonl'), memoryFile(110), { mode: 0o600 });
    const file = join(dir, 'memory-export.jsonl');
    const r = await runAish(['--data-dir', data, 'memory', 'export', file], { home: tmpDir() });
    expect(r.stderr).toBe(`aish: cannot write ${file}: no space left on device — nothing was changed\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expectUntouched(dir, files);
  });

  it('aish sessions export NAME FILE --force: exit 1, one line, the older file intact', async (ctx) => {
    const files = { 'chat.md': '# the older export\n' };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const data = tmpDir();
    const turns = [JSON.stringify({ meta: { id: '20260513-190101-abcd', started: '2026-05-13T19:01:01Z', version: 1 } })];
    for (let i = 0; i < 60; i++) {
      turns.push(JSON.stringify({ ts: '2026-05-13T19:01:02Z', role: 'user', content: `question ${i} `.padEnd(500, '?') }));
      turns.push(JSON.stringify({ ts: '2026-05-13T19:01:03Z', role: 'assistant', content: `answer ${i} `.padEnd(500, '!') }));
    }
    const sessions = join(data, 'sessions');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    writeFileSync(join(sessions, 'long.jsonl'), turns.join('\n') + '\n', { mode: 0o600 });
    const file = join(dir, 'chat.md');
    const r = await runAish(['--data-dir', data, 'sessions', 'export', 'long', file, '--force'], { home: tmpDir() });
    expect(r.stderr).toBe(`aish: cannot write ${file}: no space left on device — nothing was changed\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expectUntouched(dir, files);
  });

  it('the inbox: a candidate that does not fit fails in one line and leaves inbox.jsonl intact', async (ctx) => {
    const inbox0 = JSON.stringify({ id: 1, ts: '2026-05-13T19:01:01Z', kind: 'fact', content: 'first', source: { session: 's1' } }) + '\n';
    const files = { 'inbox.jsonl': inbox0 };
    const dir = fullDisk(files);
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const inbox = Inbox.open(join(dir, 'memory.jsonl'));
    const big = { kind: 'fact' as const, content: 'y'.repeat(64 * 1024), source: { session: 's2' } };
    await expect(inbox.add([big])).rejects.toThrow(
      `cannot write ${join(dir, 'inbox.jsonl')}: no space left on device — nothing was written`,
    );
    expectUntouched(dir, files);
    expect(existsSync(join(dir, 'inbox.jsonl.lock'))).toBe(false);
  });

  it('no inode left for the lock: one line, exit 1, memory.jsonl intact', async (ctx) => {
    const dir = tinyTmpfs('512k,nr_inodes=3'); // the root, memory.jsonl, and one more
    if (!dir) return ctx.skip('mount -t tmpfs was refused');
    const path = join(dir, 'memory.jsonl');
    const text = memoryFile(3);
    writeFileSync(path, text, { mode: 0o600 });
    const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'new'], { home: tmpDir() });
    expect(r.stderr).toBe(`aish: cannot lock ${path}.lock: no space left on device — nothing was written\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(readFileSync(path, 'utf8')).toBe(text);
    // (the add may have built its index first: that is a cache, not the store)
    expect(readdirSync(dir).filter((n) => n !== 'memory.jsonl.index')).toEqual(['memory.jsonl']);
  });

  it('a checkpoint the shadow repository has no room for is an error, not a checkpoint', async (ctx) => {
    const data = tinyTmpfs('512k');
    if (!data) return ctx.skip('mount -t tmpfs was refused');
    const work = tmpDir();
    writeFileSync(join(work, 'big.bin'), randomBytes(600 * 1024)); // incompressible: cannot fit
    await expect(new Checkpoints(data, work).snapshot('edit')).rejects.toThrow(
      /^checkpoint failed: git add: .*(No space left on device|Out of diskspace)$/,
    );
  });

  it('a restore cut short by a full disk names the checkpoint that holds the files as they were', async (ctx) => {
    const work = tinyTmpfs('512k');
    if (!work) return ctx.skip('mount -t tmpfs was refused');
    const cps = new Checkpoints(tmpDir(), work);
    writeFileSync(join(work, '.gitignore'), 'filler\n'); // the disk stays full through the restore
    writeFileSync(join(work, 'f.bin'), randomBytes(200 * 1024));
    const old = await cps.snapshot('edit');
    writeFileSync(join(work, 'f.bin'), 'small now\n');
    fillTo(work, LEAVE);
    const err = (await cps.restore(old!.id).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(
      /^restore of .* stopped part-way \(git checkout: unable to write file f\.bin\) — the files as they were before are checkpoint ([0-9a-f]+): :restore \1$/,
    );
    const before = /checkpoint ([0-9a-f]+):/.exec(err.message)![1]!;
    const { rmSync } = await import('node:fs');
    rmSync(join(work, 'filler'));
    await cps.restore(before);
    expect(readFileSync(join(work, 'f.bin'), 'utf8')).toBe('small now\n');
  });
});
