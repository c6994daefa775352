/** The line editor's keys in a real pseudo-terminal: grapheme clusters end to end, readline keys, Ctrl-L, Ctrl-Z. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { BIN, ROOT } from '../helpers/paths';
import { ptySessions, stripAnsi, type PtySession } from '../helpers/pty';
import { isolatedEnv } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { descendants, isRunning, waitForDescendant, waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());

const LEFT = '\x1b[D';
const UP = '\x1b[A';
const DOWN = '\x1b[B';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\\ud[89a-f][0-9a-f]{2}/i;

/** Type `keys`, press Enter, and return the prompt the fake server received. */
async function sent(s: PtySession, keys: string[], n: number): Promise<string> {
  for (const k of keys) {
    s.write(k);
    // One key per read, as a person types: a burst would reach aish as one chunk.
    await new Promise((r) => setTimeout(r, 40));
  }
  s.write('\r');
  return lastUserText((await fake.server.waitForRequests(n))[n - 1]!);
}

describe('line editor keys in a pseudo-terminal', () => {
  it('a🎉b, ←←, X: the cursor steps over the whole emoji, and the server, the log and the history get it intact', async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('a🎉b');
    await s.waitFor('› a🎉b');
    s.write(LEFT);
    await new Promise((r) => setTimeout(r, 40));
    const mark = s.raw().length;
    s.write(LEFT);
    // the parked cursor draws the emoji inverse, not half of it
    await waitUntil(() => s.raw().slice(mark).includes('\x1b[7m🎉\x1b[27m'), 'the emoji under an inverse cursor', {
      detail: () => JSON.stringify(s.raw().slice(mark)),
    });
    expect(await sent(s, ['X'], 1)).toBe('aX🎉b');
    await s.waitFor('echo: aX🎉b');
    expect(s.text()).not.toContain('\ufffd');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    const data = join(home, '.local', 'share', 'aish');
    const history = readFileSync(join(data, 'input-history'), 'utf8');
    expect(history).not.toMatch(LONE_SURROGATE);
    expect(
      history
        .trim()
        .split('\n')
        .map((l): unknown => JSON.parse(l)),
    ).toContain('aX🎉b');
    const logs = readdirSync(join(data, 'sessions')).map((f) => readFileSync(join(data, 'sessions', f), 'utf8'));
    const log = logs.find((l) => l.includes('aX🎉b'));
    expect(log, 'a session log with the prompt').toBeDefined();
    expect(log).not.toMatch(LONE_SURROGATE);
  });

  it('Delete deletes forward, Backspace back; Alt-b/f/d, Ctrl-←/→ and Alt-Backspace work on words', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    // abc, ←←, Delete → ac; Backspace → c
    expect(await sent(s, ['abc', LEFT, LEFT, '\x1b[3~'], 1)).toBe('ac');
    expect(await sent(s, ['abc', LEFT, '\x7f'], 2)).toBe('ac');
    // Alt-b Alt-b: before "two"; Alt-d deletes it; Alt-f: after "three"; then !
    expect(await sent(s, ['one two three', '\x1bb', '\x1bb', '\x1bd', '\x1bf', '!'], 3)).toBe('one  three!');
    // Ctrl-← twice, Ctrl-→ once: after "two"
    expect(await sent(s, ['one two three', '\x1b[1;5D', '\x1b[1;5D', '\x1b[1;5C', '_'], 4)).toBe('one two_ three');
    // Alt-Backspace deletes the word before the cursor, up to the slash (Ctrl-W would take the path)
    expect(await sent(s, ['cat path/to/file', '\x1b\x7f'], 5)).toBe('cat path/to/');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('↑/↓ in a multi-line draft move between its lines; ↑ on the first line recalls history', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    expect(await sent(s, ['earlier prompt'], 1)).toBe('earlier prompt');
    await s.waitFor('echo: earlier prompt');
    // cursor at column 5 of the second line; ↑ → "line |one"; X; ↓ → "line t|wo"; Y
    const draft = ['\x1b[200~line one\rline two\x1b[201~', LEFT, LEFT, LEFT, UP, 'X', DOWN, 'Y'];
    expect(await sent(s, draft, 2)).toBe('line Xone\nline tYwo');
    await s.waitFor('echo: line Xone');
    // on the first line, ↑ goes to history
    expect(await sent(s, ['\x1b[200~first\rsecond\x1b[201~', UP, UP], 3)).toBe('line Xone\nline tYwo');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Ctrl-L clears the screen and redraws the prompt, draft and status line', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    // a command's output goes straight to the scrollback (an answer may still sit in the live area)
    s.write(':model\r');
    await s.waitFor('* = active');
    s.write('draft');
    await s.waitFor('› draft');
    const mark = s.raw().length;
    s.write('\x0c');
    await waitUntil(() => s.raw().slice(mark).includes('\x1b[2J\x1b[3J\x1b[H'), 'the clear sequence');
    const after = () => stripAnsi(s.raw().slice(s.raw().lastIndexOf('\x1b[2J\x1b[3J\x1b[H')));
    await waitUntil(() => /› draft[^]*fast \(gpt-4o-mini\)/.test(after()), 'prompt and status line after the clear', { detail: after });
    expect(after()).not.toContain('* = active');
    expect(await sent(s, ['!'], 1)).toBe('draft!');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Ctrl-Z suspends aish like a shell job, and fg brings the UI back with the draft', async () => {
    const home = tmpDir();
    const env = isolatedEnv(home, { ...fake.env(), TERM: 'xterm-256color', CI: undefined, PS1: 'SHELL$ ', HISTFILE: '/dev/null' });
    const pty = spawn('/bin/bash', ['--norc', '--noprofile', '-i'], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: ROOT,
      env,
    });
    let out = '';
    pty.onData((d) => (out += d));
    const bashDone = new Promise<void>((r) => pty.onExit(() => r()));
    const screen = () => stripAnsi(out);
    const until = (re: RegExp, from = 0) =>
      waitUntil(() => re.test(screen().slice(from)), String(re), { detail: () => screen().slice(-1500) });
    try {
      await until(/SHELL\$ $/);
      pty.write(`"${process.execPath}" "${BIN}"\r`);
      await until(/fast \(gpt-4o-mini\)/);
      const aish = await waitForDescendant(pty.pid, /aish\.cjs/);
      pty.write('abc');
      await until(/› abc/);
      pty.write('\x1a');
      await until(/Stopped/);
      await waitUntil(() => descendants(pty.pid).find((p) => p.pid === aish.pid)?.state === 'T', 'aish stopped (state T)');
      // the terminal is the shell's again: cooked, echoing
      const mark = screen().length;
      pty.write('echo shell-$((40+2))\r');
      await until(/shell-42/, mark);
      const back = screen().length;
      pty.write('fg\r');
      await until(/› abc[^]*fast \(gpt-4o-mini\)/, back);
      expect(descendants(pty.pid).find((p) => p.pid === aish.pid)?.state).not.toBe('T');
      pty.write('d\r');
      expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe('abcd');
      await until(/echo: abcd/, back);
      pty.write('\x04');
      await until(/SHELL\$ $/, back);
      await waitUntil(() => !isRunning(aish.pid), 'aish exited');
      pty.write('exit\r');
      await bashDone; // nothing left writing into the temporary home
    } finally {
      pty.kill();
    }
  });

  it('Ctrl-Z without a job-control shell (the signal is dropped) leaves aish running and usable', async () => {
    // spawned straight into the pty, aish leads its own session: an orphaned process group, which
    // the kernel never stops for SIGTSTP
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('abc');
    await s.waitFor('› abc');
    const mark = s.raw().length;
    s.write('\x1a');
    // let go of the terminal (paste mode off, cursor shown), then take it back and redraw
    const redrawn = () => {
      const r = s.raw().slice(mark);
      const back = r.indexOf('\x1b[?2004h', r.indexOf('\x1b[?25h'));
      return r.includes('\x1b[?25h') && back >= 0 && /› abc[^]*fast \(gpt-4o-mini\)/.test(stripAnsi(r.slice(back)));
    };
    await waitUntil(redrawn, 'the UI redrawn after Ctrl-Z', { detail: () => JSON.stringify(s.raw().slice(mark)) });
    expect(await sent(s, ['d'], 1)).toBe('abcd');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
