/**
 * The checked whole-file writer, with injected failures (runs everywhere; the real full disk is in
 * test/e2e/memory-rewrite-disk-full.test.ts): a short write, a write that makes no progress, a
 * size on disk that is not what was written, a failed fsync or rename. Each leaves the original
 * byte-identical and no temp file, and says so in one line naming the file.
 */
import fs, { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { isTempFileOf, replaceFileSync, sweepDeadTemps, writeFileAtomicSync } from '../../src/util/atomic-write';
import { failWritesContaining } from '../helpers/fail-writes';
import { tmpDir } from '../helpers/tmp';

const NEW = `MARK ${'new text '.repeat(2000)}`;

function original(): { dir: string; path: string } {
  const dir = tmpDir();
  const path = join(dir, 'data.jsonl');
  writeFileSync(path, 'the original\n', { mode: 0o600 });
  return { dir, path };
}

function expectUntouched(dir: string, path: string): void {
  expect(readFileSync(path, 'utf8')).toBe('the original\n');
  expect(readdirSync(dir)).toEqual(['data.jsonl']);
}

/** Replace one fs function for this test (named imports see it too). */
function replace<K extends 'writeSync' | 'fsyncSync' | 'renameSync' | 'fstatSync'>(name: K, impl: (typeof fs)[K]): void {
  const spy = vi.spyOn(fs, name).mockImplementation(impl as never);
  syncBuiltinESMExports();
  onTestFinished(() => {
    spy.mockRestore();
    syncBuiltinESMExports();
  });
}

describe('writeFileAtomicSync', () => {
  it('write-file-atomic takes a short write for a whole one (why aish does not use it)', () => {
    const { path } = original();
    const undo = failWritesContaining('MARK', 4096);
    try {
      writeFileAtomic.sync(path, Buffer.from(NEW));
    } finally {
      undo();
    }
    expect(statSync(path).size).toBe(4096); // replaced, cut short, no error
  });

  it('a short write then ENOSPC: one line, original intact, no temp file (and so for replaceFileSync, in chunks)', () => {
    const writers = [
      (path: string) => writeFileAtomicSync(path, NEW, { mode: 0o600 }),
      (path: string) => replaceFileSync(path, [Buffer.from('head '), Buffer.from(NEW)], { mode: 0o600 }),
    ];
    for (const write of writers) {
      const { dir, path } = original();
      const undo = failWritesContaining('MARK', 4096);
      try {
        expect(() => write(path)).toThrow(`cannot write ${path}: no space left on device — nothing was changed`);
      } finally {
        undo();
      }
      expectUntouched(dir, path);
    }
  });

  it('keeps writing after a short write that is not an error, and the whole text arrives', () => {
    const { path } = original();
    const real = fs.writeSync.bind(fs) as (fd: number, b: Buffer, o: number, l: number) => number;
    replace('writeSync', ((fd: number, b: Buffer, o: number, l: number) => real(fd, b, o, Math.min(l, 1000))) as typeof fs.writeSync);
    writeFileAtomicSync(path, NEW, { mode: 0o600 });
    expect(readFileSync(path, 'utf8')).toBe(NEW);
  });

  it('a write that makes no progress is a failure, not an endless loop', () => {
    const { dir, path } = original();
    replace('writeSync', () => 0);
    expect(() => writeFileAtomicSync(path, NEW, { mode: 0o600 })).toThrow(`cannot write ${path}: input/output error — nothing was changed`);
    expectUntouched(dir, path);
  });

  it('a write that claims more than reached the disk is caught by the size check', () => {
    const { dir, path } = original();
    const real = fs.writeSync.bind(fs) as (fd: number, b: Buffer, o: number, l: number) => number;
    replace('writeSync', ((fd: number, b: Buffer, o: number, l: number) => (real(fd, b, o, Math.min(l, 100)), l)) as typeof fs.writeSync);
    expect(() => writeFileAtomicSync(path, NEW, { mode: 0o600 })).toThrow(
      `cannot write ${path}: only 100 of ${Buffer.byteLength(NEW)} bytes reached the disk — nothing was changed`,
    );
    expectUntouched(dir, path);
  });

  it('EIO at fsync, and EDQUOT, and a failed rename: original intact, no temp file', () => {
    const { dir, path } = original();
    const eio = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    replace('fsyncSync', () => {
      throw eio;
    });
    expect(() => writeFileAtomicSync(path, 'x', { mode: 0o600 })).toThrow(`cannot write ${path}: input/output error — nothing was changed`);
    expectUntouched(dir, path);
    vi.restoreAllMocks();
    syncBuiltinESMExports();

    const undo = failWritesContaining('MARK', 0, 'EDQUOT');
    try {
      expect(() => writeFileAtomicSync(path, NEW, { mode: 0o600 })).toThrow(
        `cannot write ${path}: disk quota exceeded — nothing was changed`,
      );
    } finally {
      undo();
    }
    expectUntouched(dir, path);

    replace('renameSync', () => {
      throw Object.assign(new Error('EXDEV: rename'), { code: 'EROFS' });
    });
    expect(() => writeFileAtomicSync(path, 'x', { mode: 0o600 })).toThrow(
      `cannot write ${path}: read-only file system — nothing was changed`,
    );
    expectUntouched(dir, path);
  });

  it('writes the mode asked for whatever the umask, and follows a symlink to the file it names', () => {
    const dir = tmpDir();
    const real = join(dir, 'real.txt');
    writeFileSync(real, 'old', { mode: 0o644 });
    const link = join(dir, 'link.txt');
    symlinkSync(real, link);
    const was = process.umask(0o077);
    try {
      writeFileAtomicSync(link, 'new', { mode: 0o640 });
    } finally {
      process.umask(was);
    }
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('new');
    expect(statSync(real).mode & 0o777).toBe(0o640);
  });

  it('a directory that cannot be written: one line, nothing created', () => {
    const dir = join(tmpDir(), 'missing');
    const path = join(dir, 'f.txt');
    expect(() => writeFileAtomicSync(path, 'x', { mode: 0o600 })).toThrow(
      new RegExp(`^cannot write ${path}: no such file or directory — nothing was changed$`),
    );
    mkdirSync(dir);
    writeFileAtomicSync(path, 'x', { mode: 0o600 });
    expect(readdirSync(dir)).toEqual(['f.txt']);
  });

  it('never replaces a device, a FIFO or a directory with a file', () => {
    expect(() => writeFileAtomicSync('/dev/null', 'x', { mode: 0o600 })).toThrow(
      'cannot write /dev/null: it is not a regular file — nothing was changed',
    );
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
    const dir = tmpDir();
    expect(() => writeFileAtomicSync(dir, 'x', { mode: 0o600 })).toThrow(`cannot write ${dir}: it is a directory — nothing was changed`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('names its temp files so a sweep finds them, and only them', () => {
    expect(isTempFileOf('/d/memory.jsonl', 'memory.jsonl.1234.5.tmp')).toBe(true);
    expect(isTempFileOf('/d/memory.jsonl', 'memory.jsonl.1937545387')).toBe(true);
    expect(isTempFileOf('/d/memory.jsonl', 'memory.jsonl.rejected')).toBe(false);
    expect(isTempFileOf('/d/memory.jsonl', 'memory.jsonl.lock')).toBe(false);
    expect(isTempFileOf('/d/memory.jsonl', 'inbox.jsonl.1.2.tmp')).toBe(false);
  });
});

describe('replaceFileSync (files aish derives: the memory index, the vectors)', () => {
  it('writes the chunks in order, and replaces a link in its place instead of following it (a FIFO: test/e2e/memory-hostile-files.test.ts)', () => {
    const { dir, path } = original();
    const link = join(dir, 'derived.index');
    symlinkSync(path, link);
    replaceFileSync(link, [Buffer.from('head '), new Uint8Array(0), Buffer.from('body')], { mode: 0o600 });
    expect(readFileSync(link, 'utf8')).toBe('head body');
    expect(fs.lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('the original\n');
  });
});

describe('sweepDeadTemps', () => {
  it('removes the temp files of processes that are gone, in both names, and nothing else', () => {
    const dir = tmpDir();
    const file = join(dir, 'memory.jsonl.index');
    const names = [
      'memory.jsonl.index.4194305.1.tmp', // a process that is gone: swept
      'memory.jsonl.index.tmp-4194305', // an earlier aish's name, of a process that is gone: swept
      `memory.jsonl.index.${process.pid}.7.tmp`, // ours, maybe being written: kept
      'memory.jsonl.index',
      'memory.jsonl.4194305.1.tmp', // another file's
      'memory.jsonl.index.4194305.tmp',
    ];
    for (const n of names) writeFileSync(join(dir, n), 'x');
    sweepDeadTemps(file);
    expect(readdirSync(dir).sort()).toEqual(names.slice(2).sort());
  });
});
