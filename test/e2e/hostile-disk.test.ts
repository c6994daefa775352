/**
 * A data directory on a full disk, a read-only one, another user's memory file: the conversation
 * goes on and is shown once, the user is told once what is wrong and what to do, nothing already
 * saved is harmed, and what could not be written is written once it can be. Real mounts (a tiny
 * tmpfs, a read-only bind mount; helpers/tmpfs.ts): they need root, which CI has.
 */
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputHistory } from '../../src/sessions/input-history';
import { loadSession } from '../../src/sessions/sessions';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { canMount, fillTo, readOnly, tinyTmpfs } from '../helpers/tmpfs';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'the answer.' } });
const start = ptySessions(() => fake.env(), { cols: 160, rows: 40 });

const NOT_WRITTEN =
  /session log not written: cannot create a session log in \S+: no space left on device — free some space or make the data directory writable; the conversation goes on, and its turns are written once the log can be/;

/** A full disk holding the data directory; null (skip) when mounting is refused outside CI. */
function fullDataDir(): string | null {
  const dir = tinyTmpfs('256k');
  if (!dir) return null;
  mkdirSync(join(dir, 'sessions'), { mode: 0o700 });
  fillTo(dir, 0);
  return dir;
}

describe.skipIf(!canMount)('a full disk under the data directory (real tmpfs, needs root)', () => {
  it('plain mode: each answer shown once, one warning, no empty logs; once space is freed every held turn is written and :save works', async (ctx) => {
    const dir = fullDataDir();
    if (!dir) return ctx.skip('mount was refused');
    const script = ['first question', 'second question', `!rm ${join(dir, 'filler')}`, 'third question', ':save kept', ':quit', ''].join(
      '\n',
    );
    const r = await runAish(['--data-dir', dir], { home: tmpDir(), input: script, env: fake.env() });
    expect(r.code).toBe(0);
    expect(r.stdout.match(/the answer\./g)).toHaveLength(3);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('session log'));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(NOT_WRITTEN);
    expect(warnings[1]).toMatch(/^aish: warning: session log written again: /);
    expect(r.stdout).toContain('saved as kept');
    // Everything said is in the log, in order, though the first turns came while the disk was full.
    const logs = readdirSync(join(dir, 'sessions')).filter((n) => n !== 'kept.jsonl');
    expect(logs).toHaveLength(1);
    const turns = loadSession(join(dir, 'sessions', logs[0]!)).turns.filter((t) => t.role !== 'tool');
    // (the third prompt carries the !rm's output before it)
    expect(turns.map((t) => [t.role, String(t.content).split('\n').at(-1)])).toEqual([
      ['user', 'first question'],
      ['assistant', 'the answer.'],
      ['user', 'second question'],
      ['assistant', 'the answer.'],
      ['user', 'third question'],
      ['assistant', 'the answer.'],
    ]);
  });

  it(':save while nothing can be written says why, not "nothing to save"', async (ctx) => {
    const dir = fullDataDir();
    if (!dir) return ctx.skip('mount was refused');
    const r = await runAish(['--data-dir', dir], { home: tmpDir(), input: 'a question\n:save kept\n', env: fake.env() });
    expect(r.stderr).toMatch(/aish: cannot save "kept": cannot create a session log in \S+: no space left on device\n/);
    expect(r.stderr).not.toContain('nothing to save');
    expect(readdirSync(join(dir, 'sessions'))).toEqual([]);
  });

  it('the REPL: two turns, one warning, each answer once', async (ctx) => {
    const dir = fullDataDir();
    if (!dir) return ctx.skip('mount was refused');
    const s = start(tmpDir(), ['--data-dir', dir]);
    await s.waitFor('mem 0');
    s.write('first question\r');
    await s.waitFor('the answer.');
    fake.server.enqueue({ text: 'the second answer.' });
    s.write('second question\r');
    await s.waitFor('the second answer.');
    await s.settle(); // the turn has ended: :quit is not type-ahead
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
    const shown = s.screen.allLines().join('\n');
    expect(shown.match(/session log not written/g)).toHaveLength(1);
    expect(shown.match(/the answer\./g)).toHaveLength(1);
    expect(shown.match(/the second answer\./g)).toHaveLength(1);
    expect(readdirSync(join(dir, 'sessions'))).toEqual([]);
  });

  it('a config.ts whose compile cache cannot be written (HOME on the full disk) still loads: compiled without the cache', async (ctx) => {
    const home = tinyTmpfs('256k');
    if (!home) return ctx.skip('mount was refused');
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), 'export default { context: { maxTokens: 9000 } };\n');
    fillTo(home, 0);
    const r = await runAish(['-p', 'hi'], { home, env: fake.env() });
    expect(r).toMatchObject({ code: 0, stdout: 'the answer.\n' });
  });

  it('input-history: an entry the disk cannot take leaves no half line for the next one to join', (ctx) => {
    const dir = tinyTmpfs('64k');
    if (!dir) return ctx.skip('mount was refused');
    const path = join(dir, 'input-history');
    // A page of history with a little room left in it, then nothing: the next long entry is cut short by the disk.
    writeFileSync(path, JSON.stringify('x'.repeat(4000)) + '\n', { mode: 0o600 });
    fillTo(dir, 0);
    const before = readFileSync(path, 'utf8');
    new InputHistory(path).add('y'.repeat(8000));
    expect(readFileSync(path, 'utf8')).toBe(before);
    rmSync(join(dir, 'filler'));
    new InputHistory(path).add('next prompt');
    expect(new InputHistory(path).entries).toEqual(['x'.repeat(4000), 'next prompt']);
  });
});

describe.skipIf(!canMount)('a read-only data directory (real read-only bind mount, needs root)', () => {
  it('HOME read-only: memory add says what cannot be created and what to do, in one line; a chat goes on with one warning', async (ctx) => {
    const home = tmpDir();
    if (!readOnly(home)) return ctx.skip('mount was refused');
    const add = await runAish(['memory', 'add', 'fact', 'x'], { home });
    expect(add.stderr).toBe(
      `aish: cannot create ${join(home, '.local', 'share', 'aish')}: read-only file system (at ${join(home, '.local')}) — make it writable, or pass another data directory with --data-dir (or AISH_DATA_DIR)\n`,
    );
    expect(add.code).toBe(1);
    const chat = await runAish([], { home, input: 'one\ntwo\n', env: fake.env() });
    expect(chat).toMatchObject({ code: 0, stdout: 'the answer.\nthe answer.\n' });
    expect(chat.stderr.trim().split('\n')).toHaveLength(1);
    expect(chat.stderr).toContain(': read-only file system — ');
  });
});

describe.skipIf(process.getuid?.() !== 0)('another user owns the memory file (root, as `sudo aish` on a user home)', () => {
  it('compact keeps the owner: the user can still read their memory afterwards', async () => {
    const dir = tmpDir();
    const path = join(dir, 'memory.jsonl');
    for (const text of ['kept', 'dropped']) await runAish(['--data-dir', dir, 'memory', 'add', 'fact', text], { home: tmpDir() });
    await runAish(['--data-dir', dir, 'memory', 'forget', '2'], { home: tmpDir() });
    chownSync(path, 65534, 65534);
    const r = await runAish(['--data-dir', dir, 'memory', 'compact'], { home: tmpDir() });
    expect(r.code).toBe(0);
    expect(statSync(path)).toMatchObject({ uid: 65534, gid: 65534 });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(path)).toBe(true);
  });
});

describe('relative XDG directories (the XDG spec: ignored)', () => {
  it('XDG_DATA_HOME and XDG_CACHE_HOME relative: nothing lands under the current directory; the defaults under HOME are used', async () => {
    const home = tmpDir();
    const cwd = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), 'export default { context: { maxTokens: 9000 } };\n');
    const r = await runAish(['memory', 'add', 'fact', 'where am I kept'], {
      home,
      cwd,
      env: { XDG_DATA_HOME: 'rel/data', XDG_CACHE_HOME: 'rel/cache' },
    });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(home, '.local', 'share', 'aish', 'memory.jsonl'))).toBe(true);
    expect(existsSync(join(home, '.cache', 'aish', 'config-cache'))).toBe(true);
  });
});
