/**
 * memory.jsonl in odd shapes, through the real CLI and the piped REPL: every command ends (no spin,
 * no hang), exits with one line or none, and leaves the file as it was unless it wrote to it.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

/** A killed run (SIGKILL after the timeout) has a signal: every run here must end on its own. */
const QUICK = 15_000;

function setup(): { top: string; data: string; home: string; link: string } {
  const top = tmpDir();
  const data = join(top, 'data');
  const home = join(top, 'home');
  mkdirSync(data, { mode: 0o700 });
  return { top, data, home, link: join(data, 'memory.jsonl') };
}

describe('memory.jsonl as a symlink to a file that does not exist yet', () => {
  it('aish memory add creates the file the link names, the link stays, and list shows the item', async () => {
    const { top, data, home, link } = setup();
    const target = join(top, 'dotfiles-memory.jsonl');
    symlinkSync(target, link);
    const add = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'kept through the link'], { home, timeoutMs: QUICK });
    expect(add).toMatchObject({ code: 0, signal: null, stdout: 'added 1 (fact)\n', stderr: '' });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(lstatSync(target).mode & 0o777).toBe(0o600);
    expect(readFileSync(target, 'utf8')).toContain('"content":"kept through the link"');
    const list = await runAish(['--data-dir', data, 'memory', 'list'], { home, timeoutMs: QUICK });
    expect(list.stdout).toContain('kept through the link');
  });

  it('a relative link, and a link to a link, are followed the same way', async () => {
    const { data, home, link } = setup();
    symlinkSync('second-link', link);
    symlinkSync('real.jsonl', join(data, 'second-link'));
    const r = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'two hops'], { home, timeoutMs: QUICK });
    expect(r).toMatchObject({ code: 0, signal: null, stderr: '' });
    expect(readFileSync(join(data, 'real.jsonl'), 'utf8')).toContain('two hops');
  });

  it(':remember in the piped REPL writes through the link too', async () => {
    const { top, data, home, link } = setup();
    const target = join(top, 'elsewhere.jsonl');
    symlinkSync(target, link);
    const r = await runAish(['--data-dir', data], { home, input: ':remember through the REPL\n:quit\n', timeoutMs: QUICK });
    expect(r.signal).toBeNull();
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(target, 'utf8')).toContain('through the REPL');
  });

  it('a link into a directory that does not exist: one line naming the file, exit 1, no hang', async () => {
    const { top, data, home, link } = setup();
    symlinkSync(join(top, 'no-such-dir', 'memory.jsonl'), link);
    const r = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'x'], { home, timeoutMs: QUICK });
    expect(r).toMatchObject({ code: 1, signal: null, stdout: '' });
    expect(r.stderr).toBe(`aish: cannot write ${link}: no such file or directory — nothing was written\n`);
  });

  it('links that go in a circle: one line, exit 1, no hang', async () => {
    const { data, home, link } = setup();
    symlinkSync('other', link);
    symlinkSync('memory.jsonl', join(data, 'other'));
    const r = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'x'], { home, timeoutMs: QUICK });
    expect(r).toMatchObject({ signal: null, stdout: '' });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^aish: .*symbolic link/);
  });
});

describe('ids at the largest number aish can count to', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const first = '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"first"}';
  const refused = (file: string) =>
    `aish: memory.jsonl has no id left: a line of it names an id near ${MAX}, the largest aish can count to — lower that id in ${file} (a hand edit?) and try again; nothing was written\n`;

  it.each([
    ['an item', `{"id":${MAX},"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"at the edge"}`],
    ['a tombstone target', `{"id":2,"ts":"2026-05-13T19:01:01Z","kind":"forget","target":${MAX}}`],
    ['a header', `{"meta":{"format":"aish-memory","version":1,"maxId":${MAX}}}`],
  ])('%s naming it: a write is refused in one line and the file is unchanged (no unreadable line written as "added")', async (_n, line) => {
    const { data, home, link: path } = setup();
    writeFileSync(path, `${first}\n${line}\n`, { mode: 0o600 });
    const before = readFileSync(path);
    for (const args of [
      ['add', 'fact', 'new'],
      ['forget', '1'],
      ['pin', '1'],
    ]) {
      const r = await runAish(['--data-dir', data, 'memory', ...args], { home, timeoutMs: QUICK });
      expect(r).toMatchObject({ code: 1, signal: null, stdout: '', stderr: refused(path) });
    }
    const repl = await runAish(['--data-dir', data], { home, input: ':remember from the REPL\n:quit\n', timeoutMs: QUICK });
    expect(repl.stderr).toContain(refused(path).trimEnd());
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('the last id is handed out and read back; the one after is refused', async () => {
    const { data, home, link: path } = setup();
    writeFileSync(path, `{"id":${MAX - 1},"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"near the edge"}\n`, { mode: 0o600 });
    const ok = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'the last one'], { home, timeoutMs: QUICK });
    expect(ok).toMatchObject({ code: 0, stdout: `added ${MAX} (fact)\n` });
    const over = await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'one too many'], { home, timeoutMs: QUICK });
    expect(over).toMatchObject({ code: 1, stderr: refused(path) });
    const list = await runAish(['--data-dir', data, 'memory', 'list'], { home, timeoutMs: QUICK });
    expect(list.stderr).toBe('');
    expect(list.stdout).toContain('the last one');
    expect(readFileSync(path, 'utf8')).not.toContain('one too many');
  });
});

describe('an import dated in the future', () => {
  it('is taken at this clock, said so, and does not outrank what the user writes after it in [background]', async () => {
    const { top, data, home } = setup();
    const file = join(top, 'from-elsewhere.jsonl');
    writeFileSync(
      file,
      [
        { id: 1, ts: '+275760-09-13T00:00:00.000Z', kind: 'fact', content: 'zebra far future import' },
        { id: 2, ts: '2999-01-01T00:00:00Z', kind: 'fact', content: 'zebra next millennium import' },
        { id: 3, ts: '2020-01-01T00:00:00Z', kind: 'fact', content: 'zebra dated import' },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n') + '\n',
    );
    const imp = await runAish(['--data-dir', data, 'memory', 'import', file], { home, timeoutMs: QUICK });
    expect(imp.stdout).toBe(`imported 3 items from ${file}; skipped 0 duplicates; 2 items dated in the future taken at this clock\n`);
    const before = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await runAish(['--data-dir', data, 'memory', 'add', 'fact', 'zebra written after the import'], { home, timeoutMs: QUICK });
    const list = await runAish(['--data-dir', data, 'memory', 'list', '--json'], { home, timeoutMs: QUICK });
    const items = JSON.parse(list.stdout) as Array<{ content: string; ts: string }>;
    for (const it of items) expect(Date.parse(it.ts)).toBeLessThan(before + 60_000);
    // Newest first: the user's own item, then what the import brought.
    expect(items[0]!.content).toBe('zebra written after the import');
    expect(items.find((i) => i.content === 'zebra dated import')!.ts).toBe('2020-01-01T00:00:00Z');
    // And so in what the model is sent.
    const p = await runAish(['--data-dir', data, '-p', 'hello'], { home, env: fake.env(), timeoutMs: QUICK });
    expect(p.code, p.stderr).toBe(0);
    const system = systemText(fake.server.requests[0]!);
    const at = (text: string) => system.indexOf(text);
    expect(at('zebra written after the import')).toBeGreaterThan(at('[background]'));
    expect(at('zebra written after the import')).toBeLessThan(at('zebra far future import'));
    expect(at('zebra written after the import')).toBeLessThan(at('zebra next millennium import'));
  });
});

describe('FIFOs in the place of the files aish keeps beside memory.jsonl', () => {
  const one = '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"alpha"}\n';

  it('memory.jsonl.index (derived): every command runs as without one, and the FIFO is replaced by an index', async () => {
    const { data, home, link: path } = setup();
    writeFileSync(path, one, { mode: 0o600 });
    execFileSync('mkfifo', [`${path}.index`]);
    for (const args of [['list'], ['search', 'alpha'], ['add', 'fact', 'beta'], ['plan', 'alpha']]) {
      const r = await runAish(['--data-dir', data, 'memory', ...args], { home, timeoutMs: QUICK });
      expect(r, args.join(' ')).toMatchObject({ code: 0, signal: null, stderr: '' });
    }
    const repl = await runAish(['--data-dir', data], { home, input: ':memory list\n:quit\n', timeoutMs: QUICK });
    expect(repl.signal).toBeNull();
    expect(repl.stdout).toContain('beta');
    expect(lstatSync(`${path}.index`).isFile()).toBe(true);
  });

  it('memory.jsonl.rejected: compact refuses in one line, memory.jsonl untouched, no hang', async () => {
    const { data, home, link: path } = setup();
    // More unreadable text than a pipe holds, so a write into the FIFO would block.
    const bad = Array.from({ length: 100 }, (_v, i) => `garbage ${i} ${'z'.repeat(1000)}`).join('\n');
    writeFileSync(path, `${one}${bad}\n`, { mode: 0o600 });
    const before = readFileSync(path);
    execFileSync('mkfifo', [`${path}.rejected`]);
    const r = await runAish(['--data-dir', data, 'memory', 'compact'], { home, timeoutMs: QUICK });
    expect(r).toMatchObject({ code: 1, signal: null, stdout: '' });
    expect(r.stderr.split('\n').filter((l) => l.startsWith('aish: '))).toEqual([
      `aish: ${path}.rejected is not a regular file — move it away (aish makes a new one); nothing was compacted`,
    ]);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('a FIFO named like a session log: aish sessions search skips it, no hang', async () => {
    const { data, home } = setup();
    mkdirSync(join(data, 'sessions'), { mode: 0o700 });
    execFileSync('mkfifo', [join(data, 'sessions', '2026-01-01-0000-1.jsonl')]);
    const r = await runAish(['--data-dir', data, 'sessions', 'search', 'anything'], { home, timeoutMs: QUICK });
    expect(r).toMatchObject({ code: 0, signal: null, stderr: '' });
  });
});
