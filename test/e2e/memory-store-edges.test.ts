/**
 * Store edges through the real CLI: a memory.jsonl nobody may read (mode 000) and a lock that is a
 * dangling symlink give one line saying what is wrong and what to do, exit 1, for every memory
 * command and the REPL's :memory. Root reads a mode-000 file anyway, so as root the commands run
 * without the capabilities that override file permissions (setpriv), as a user's would: still
 * root, so the checkout stays readable wherever it lives (a clone under a 0700 temp dir).
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/paths';
import { isolatedEnv, runAish, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const isRoot = process.getuid?.() === 0;
/** Run aish as the test's user; as root, without the permission-overriding capabilities. */
function runAs(args: string[], home: string, input = ''): Promise<CliResult> {
  const argv = isRoot
    ? ['setpriv', ['--bounding-set=-dac_override,-dac_read_search', process.execPath, BIN, ...args]]
    : [process.execPath, [BIN, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv[1] as string[], { cwd: ROOT, env: isolatedEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A data dir and a home the user running aish owns, with one item in memory.jsonl. */
function dataDir(): { data: string; home: string; path: string } {
  const top = tmpDir();
  chmodSync(top, 0o755);
  const data = join(top, 'data');
  const home = join(top, 'home');
  mkdirSync(data, { mode: 0o700 });
  mkdirSync(home, { mode: 0o700 });
  const path = join(data, 'memory.jsonl');
  writeFileSync(path, '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"hello"}\n', { mode: 0o600 });
  writeFileSync(join(top, 'import.jsonl'), '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"imported"}\n', { mode: 0o644 });
  return { data, home, path };
}

/** The command's arguments, IMPORT standing for the file to import. */
function argsFor(args: string[], data: string): string[] {
  return ['--data-dir', data, 'memory', ...args.map((a) => (a === 'IMPORT' ? join(data, '..', 'import.jsonl') : a))];
}

const EVERY: string[][] = [
  ['list'],
  ['list', '--json'],
  ['add', 'fact', 'new'],
  ['forget', '1'],
  ['edit', '1', 'changed'],
  ['pin', '1'],
  ['unpin', '1'],
  ['search', 'hello'],
  ['plan', 'hello'],
  ['export'],
  ['import', 'IMPORT'],
  ['compact'],
  ['clear', '--yes'],
  ['review', '--json'],
];
const WRITES = EVERY.filter((a) => ['add', 'forget', 'edit', 'pin', 'unpin', 'import', 'compact', 'clear'].includes(a[0]!));

function expectOneLine(r: CliResult, line: string): void {
  expect(r.stderr).toBe(`aish: ${line}\n`);
  expect(r.code).toBe(1);
}

describe('memory.jsonl with mode 000', () => {
  it.each(EVERY.map((a) => [a.join(' '), a]))('aish memory %s: one line naming the file and the fix, exit 1', async (_n, args) => {
    const { data, home, path } = dataDir();
    chmodSync(path, 0o000);
    const r = await runAs(argsFor(args, data), home);
    expectOneLine(r, `cannot read ${path}: permission denied — make it yours and readable: chmod 600 ${path}`);
  });

  it(':memory in the REPL says the same, once per command, without a stack', async () => {
    const { data, home, path } = dataDir();
    chmodSync(path, 0o000);
    const r = await runAs(['--data-dir', data], home, ':memory list\n:memory add fact x\n:quit\n');
    const line = `cannot read ${path}: permission denied — make it yours and readable: chmod 600 ${path}`;
    expect(r.stderr).toContain(`aish: warning: memory not loaded: ${line}\n`);
    expect(r.stderr.split('\n').filter((l) => l === `aish: ${line}`)).toHaveLength(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('memory.jsonl.lock as a dangling symlink', () => {
  it.each(WRITES.map((a) => [a.join(' '), a]))(
    'aish memory %s: one line saying to remove it, exit 1, nothing written',
    async (_n, args) => {
      const { data, home, path } = dataDir();
      const before = readFileSync(path);
      symlinkSync('/nonexistent/lock', `${path}.lock`);
      const r = await runAs(argsFor(args, data), home);
      expectOneLine(
        r,
        `${path}.lock is a symbolic link to /nonexistent/lock, not aish's lock directory — remove it (rm ${path}.lock) if no aish is running`,
      );
      expect(readFileSync(path).equals(before)).toBe(true);
    },
  );
});

describe('memory.jsonl.lock as a dangling symlink, in the REPL', () => {
  it(':memory add and :memory forget say the same one line, without a stack', async () => {
    const { data, home, path } = dataDir();
    symlinkSync('/nonexistent/lock', `${path}.lock`);
    const r = await runAs(['--data-dir', data], home, ':memory add fact x\n:memory forget 1\n:quit\n');
    const line = `aish: ${path}.lock is a symbolic link to /nonexistent/lock, not aish's lock directory — remove it (rm ${path}.lock) if no aish is running`;
    expect(r.stderr.split('\n').filter((l) => l === line)).toHaveLength(2);
    expect(r.stderr).not.toMatch(/\n\s+at |ENOTDIR/);
  });
});

describe('FIFOs where aish expects files', () => {
  it('memory.jsonl that is a FIFO: one line, exit 1, no hang', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    execFileSync('mkfifo', [path]);
    const r = await runAish(['--data-dir', dir, 'memory', 'list'], { home: tmpDir(), timeoutMs: 10_000 });
    expect(r).toMatchObject({ code: 1, signal: null, stdout: '' });
    expect(r.stderr).toBe(`aish: ${path} is not a regular file — point memory.path at a file\n`);
  });

  it("a FIFO as the lock's owner record proves nothing: the stale lock is taken over, no hang", async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    mkdirSync(`${path}.lock`);
    execFileSync('mkfifo', [`${path}.lock/owner`]);
    const t = (Date.now() - 60_000) / 1000;
    utimesSync(`${path}.lock`, t, t);
    const r = await runAish(['--data-dir', dir, 'memory', 'add', 'fact', 'after the takeover'], { home: tmpDir(), timeoutMs: 10_000 });
    expect(r).toMatchObject({ code: 0, signal: null, stdout: 'added 1 (fact)\n', stderr: '' });
  });
});

describe('a data directory that is a file', () => {
  it('names the file that is not a directory and what to pass, exit 2 (before any store is opened)', async () => {
    const top = tmpDir();
    const file = join(top, 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await runAish(['--data-dir', file, 'memory', 'list'], { home: top });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `aish: data directory ${file} is a file, not a directory — pass a directory with --data-dir (or AISH_DATA_DIR); it is created if missing\n`,
    );
  });
});
