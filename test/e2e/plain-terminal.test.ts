/**
 * Plain mode with someone at the keyboard: `aish | cat` (stdin a terminal, stdout a pipe) and
 * TERM=dumb. aish says at once that it is ready, on stderr, so what stdout carries stays the answers.
 */
import { spawn } from '@lydell/node-pty';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { BIN, ROOT } from '../helpers/paths';
import { ptySessions, stripAnsi } from '../helpers/pty';
import { isolatedEnv } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const startDumb = ptySessions(() => fake.env({ TERM: 'dumb' }));
const READY = 'aish: ready (fast, gpt-4o-mini) — type a prompt or :help; Ctrl-D quits';

/** `sh -c "aish … | cat"` in a terminal: `out` is what the terminal shows. */
function piped(shellTail: string) {
  const env = isolatedEnv(tmpDir(), { ...fake.env(), TERM: 'xterm-256color', CI: undefined });
  const pty = spawn('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" ${shellTail}`], { cols: 100, rows: 30, cwd: ROOT, env });
  let out = '';
  const waiters = new Set<() => void>();
  pty.onData((d) => {
    out += d;
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<number>((resolve) => pty.onExit((e) => setTimeout(() => resolve(e.exitCode), 200)));
  const waitFor = (s: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stripAnsi(out).includes(s)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        pty.kill();
        reject(new Error(`timed out waiting for ${s}; terminal:\n${stripAnsi(out)}`));
      }, 15_000);
      waiters.add(check);
      check();
    });
  return { pty, waitFor, exited, text: () => stripAnsi(out) };
}

describe('plain mode with a person typing', () => {
  it('aish | cat: one ready line at once, before anything is typed; the answers still come through the pipe', async () => {
    const s = piped('| cat');
    await s.waitFor(READY);
    expect(s.text().trim()).toBe(READY);
    s.pty.write('hello there\r');
    await s.waitFor('echo: hello there');
    s.pty.write('\x04');
    expect(await s.exited).toBe(0);
  });

  it('the ready line goes to stderr: stdout piped on carries only the answers', async () => {
    const s = piped('2>/dev/null | cat');
    s.pty.write('hello there\r');
    await s.waitFor('echo: hello there');
    s.pty.write('\x04');
    expect(await s.exited).toBe(0);
    expect(s.text()).not.toContain('aish: ready');
  });

  it('TERM=dumb says it is ready too', async () => {
    const s = startDumb(tmpDir());
    await s.waitFor(READY);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('stdin not a terminal (a script): no ready line', async () => {
    const s = piped(`< /dev/null`);
    expect(await s.exited).toBe(0);
    expect(s.text()).toBe('');
  });
});
