/** `aish -e` and `:do`: non-TTY prints only the command; in a terminal, execute, revise and the destructive gate. */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText } from '../helpers/openai-server';
import { closedPort } from '../helpers/ports';
import { spawnAish } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const suggestion = (command: string, explanation = 'does the thing') => ({ text: `COMMAND: ${command}\nEXPLANATION: ${explanation}` });

describe('aish -e, stdout not a terminal', () => {
  it('prints only the command, one line, exit 0; the prompt names cwd, OS and shell', async () => {
    fake.server.enqueue(suggestion('find . -type f -size +100M', 'files over 100 MB'));
    const cwd = tmpDir();
    const r = await runAish(['-e', 'find files over 100 MB here'], { home: tmpDir(), env: fake.env({ SHELL: '/usr/bin/zsh' }), cwd });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('find . -type f -size +100M\n');
    const [req] = await fake.server.waitForRequests(1);
    expect(lastUserText(req!)).toBe('find files over 100 MB here');
    expect(systemText(req!)).toContain(`current directory ${cwd}`);
    expect(systemText(req!)).toContain('shell zsh');
    expect(systemText(req!)).toContain('OS Linux');
  });

  it('a fenced answer works too', async () => {
    fake.server.enqueue({ text: 'Sure:\n\n```bash\ndu -sh * | sort -h\n```\n' });
    const r = await runAish(['-e', 'what takes space'], { home: tmpDir(), env: fake.env() });
    expect(r.stdout).toBe('du -sh * | sort -h\n');
    expect(r.code).toBe(0);
  });

  it('[background] memory goes into the request', async () => {
    const home = tmpDir();
    expect((await runAish(['memory', 'add', 'pref', 'Use fd instead of find.'], { home, env: fake.env() })).code).toBe(0);
    fake.server.enqueue(suggestion('fd --size +100m'));
    const r = await runAish(['-e', 'big files'], { home, env: fake.env() });
    expect(r.stdout).toBe('fd --size +100m\n');
    expect(systemText((await fake.server.waitForRequests(1))[0]!)).toContain('- (pref) Use fd instead of find.');
  });

  it('a failed model call exits 1 with nothing on stdout', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await runAish(['-e', 'anything'], { home: tmpDir(), env: fake.env({ OPENAI_BASE_URL: url }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`cannot reach ${url}`);
  });

  it('an answer with no command exits 1', async () => {
    fake.server.enqueue({ text: 'I cannot help with that.' });
    const r = await runAish(['-e', 'anything'], { home: tmpDir(), env: fake.env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^aish: the model did not answer with a command/);
  });

  it('aish init with an unknown shell is a usage error', async () => {
    const r = await runAish(['init', 'tcsh'], { home: tmpDir(), env: fake.env() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no init snippet for "tcsh"');
  });
});

describe('aish -e in a terminal (the menu acts on one key, no Enter)', () => {
  it('e runs the command and its output appears', async () => {
    fake.server.enqueue(suggestion('echo shouting | tr a-z A-Z', 'prints SHOUTING'));
    const s = spawnAish(['-e', 'shout'], { home: tmpDir(), env: fake.env() });
    await s.waitFor('[e]xecute [r]evise [d]escribe [c]opy [q]uit');
    expect(s.text()).toContain('echo shouting | tr a-z A-Z');
    expect(s.text()).toContain('prints SHOUTING');
    s.write('e');
    await s.waitFor(/^SHOUTING\r?$/m);
    await s.waitFor('[exit 0]');
    expect(await s.exitCode()).toBe(0);
  });

  it('r sends a revision request with the previous command', async () => {
    fake.server.enqueue(suggestion('ls -la'), suggestion('ls -la --sort=size'));
    const s = spawnAish(['-e', 'list files'], { home: tmpDir(), env: fake.env() });
    await s.waitFor('[q]uit');
    s.write('r');
    await s.waitFor('what should change?');
    s.write('sort by size\r');
    await s.waitFor('ls -la --sort=size');
    const [, rev] = await fake.server.waitForRequests(2);
    const msgs = rev!.body.messages as Array<{ role: string; content: string }>;
    expect(msgs.at(-2)).toEqual({ role: 'assistant', content: 'COMMAND: ls -la\nEXPLANATION: does the thing' });
    expect(msgs.at(-1)!.content).toContain('ls -la');
    expect(msgs.at(-1)!.content).toContain('sort by size');
    s.write('q');
    expect(await s.exitCode()).toBe(0);
  });

  it('a destructive suggestion needs the typed word yes', async () => {
    const cwd = tmpDir();
    mkdirSync(join(cwd, 'build'));
    fake.server.enqueue(suggestion('rm -rf build', 'deletes build'), suggestion('rm -rf build', 'deletes build'));
    const s = spawnAish(['-e', 'clean up'], { home: tmpDir(), env: fake.env(), cwd });
    await s.waitFor('[q]uit');
    s.write('e');
    await s.waitFor('destructive: ');
    await s.waitFor('type yes to run it:');
    // The warning is red, with one icon.
    expect(s.raw()).toMatch(/\x1b\[31m✗ destructive: /);
    expect(s.raw()).not.toContain('⚠');
    s.write('y\r');
    await s.waitFor('not run');
    expect(await s.exitCode()).toBe(0);
    expect(existsSync(join(cwd, 'build'))).toBe(true);

    const t = spawnAish(['-e', 'clean up'], { home: tmpDir(), env: fake.env(), cwd });
    await t.waitFor('[q]uit');
    t.write('e');
    await t.waitFor('type yes to run it:');
    t.write('yes\r');
    await t.waitFor('[exit 0]');
    expect(await t.exitCode()).toBe(0);
    expect(existsSync(join(cwd, 'build'))).toBe(false);
  });

  it('c writes the command to the clipboard with OSC 52 and prints it', async () => {
    fake.server.enqueue(suggestion('git status'));
    const s = spawnAish(['-e', 'status'], { home: tmpDir(), env: fake.env() });
    await s.waitFor('[q]uit');
    s.write('c');
    await s.waitFor('copied to the clipboard: git status');
    expect(s.raw()).toContain(`\x1b]52;c;${Buffer.from('git status').toString('base64')}\x07`);
    expect(await s.exitCode()).toBe(0);
  });
});

describe(':do in the REPL', () => {
  it('suggests, and e (one key, no Enter) runs it like !cmd', async () => {
    fake.server.enqueue(suggestion('echo quiet | tr a-z A-Z', 'prints QUIET'));
    const s = spawnAish([], { home: tmpDir(), env: fake.env(), cols: 120 });
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':do make it loud\r');
    await s.waitFor('[e]xecute [r]evise [d]escribe [c]opy [q]uit');
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe('make it loud');
    s.write('e');
    await s.waitFor(/^QUIET\s*$/m);
    await s.waitFor('[exit 0]');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
