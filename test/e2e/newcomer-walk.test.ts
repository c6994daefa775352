/**
 * The newcomer's first hour walked again on the built package: what was rough there and no row of
 * issue 32 named. NO_COLOR in a real terminal, `aish help`, and the screen left behind at quit.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { BIN } from '../helpers/paths';
import { ptySessions } from '../helpers/pty';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());
const startNoColor = ptySessions(() => fake.env({ NO_COLOR: '1' }));
const startDumb = ptySessions(() => fake.env({ TERM: 'dumb' }));

/** The SGR parameters of every `ESC [ … m` in `raw` that set a colour (fore-, background, underline). */
function colours(raw: string): string[] {
  const found: string[] = [];
  for (const m of raw.matchAll(/\x1b\[([\d;:]*)m/g)) {
    const p = m[1]!.split(';');
    for (let i = 0; i < p.length; i++) {
      const n = Number(p[i]);
      if (/^[345]8($|:)/.test(p[i]!)) {
        found.push(m[1]!);
        break;
      }
      if ((n >= 30 && n <= 49) || (n >= 90 && n <= 107) || n === 59) {
        found.push(m[1]!);
        break;
      }
    }
  }
  return found;
}

describe('NO_COLOR in the REPL', () => {
  it('with NO_COLOR set, no colour reaches the terminal; bold, dim and the drawn cursor stay', async () => {
    fake.server.setDefault({ text: 'Run `ls -la` here:\n\n```bash\nls -la | grep "x"\n```\n' });
    const s = startNoColor(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('what now\r');
    await s.waitFor('ls -la | grep');
    s.write('\x1b[200~x\x1b[201~'); // something in the input line
    await s.settle();
    expect(colours(s.raw())).toEqual([]);
    expect(s.raw()).toContain('\x1b[7m'); // the drawn cursor (inverse) is a style, not a colour
    expect(s.raw()).toContain('\x1b[2m'); // the dim status line
    s.write('\x03\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('without it, aish still colours its prompt', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    expect(colours(s.raw()).length).toBeGreaterThan(0);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('TERM=dumb (Emacs M-x shell, a terminal that cannot move its cursor)', () => {
  it('lines as typed, answers as plain text, no cursor movement or hidden cursor; Ctrl-C cancels an answer, Ctrl-D quits', async () => {
    const s = startDumb(tmpDir());
    s.write('hello there\r');
    await s.waitFor('echo: hello there');
    fake.server.enqueue({ text: 'word '.repeat(400), chunkSize: 5, intervalMs: 30 });
    s.write('a long one\r');
    await s.waitFor('word word word');
    s.write('\x03');
    await s.waitFor('[interrupted]');
    s.write('and after\r');
    await s.waitFor('echo: and after');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    // No screen control at all: what the terminal shows is the text as written.
    expect(s.raw()).not.toMatch(/\x1b\[[\d;?]*[ABCDEFGHJKhl]/);
  });
});

describe('a short terminal (a 6-row split pane)', () => {
  it('an answer streaming in it never clears the screen: the conversation above stays', async () => {
    const s = start(tmpDir(), [], { cols: 80, rows: 6 });
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('first q\r');
    await s.waitFor('echo: first q');
    fake.server.enqueue({
      text: 'Here:\n\n```bash\n' + Array.from({ length: 60 }, (_, i) => `echo ${i}`).join('\n') + '\n```\n',
      chunkSize: 5,
      intervalMs: 20,
    });
    const mark = s.raw().length;
    s.write('please slowcode\r');
    await s.waitFor(/… 1\d more lines above/);
    s.write('\x03');
    await s.waitFor('[interrupted]');
    // Ink clears the whole terminal (scrollback too) on every frame as tall as the terminal.
    expect(s.raw().slice(mark)).not.toContain('\x1b[3J');
    const all = s.screen.allLines().join('\n');
    expect(all).toContain('› first q');
    expect(all).toContain('› please slowcode');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('the screen left behind at quit', () => {
  it('Ctrl-D while an answer streams: the partial answer is kept, marked interrupted, on screen and in the log', async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('fast (gpt-4o-mini)');
    fake.server.enqueue({ text: 'word '.repeat(400), chunkSize: 5, intervalMs: 30 });
    s.write('a long one\r');
    await s.waitFor('word word word');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    expect(s.screen.allLines().join('\n')).toContain('[interrupted]');
    const dir = join(home, '.local', 'share', 'aish', 'sessions');
    const log = readdirSync(dir)
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');
    const answers = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { role?: string; content?: string; meta?: string })
      .filter((r) => r.role === 'assistant');
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ meta: 'interrupted' });
    expect(answers[0]!.content).toMatch(/^word word .*\[interrupted by the user\]$/s);
  });

  it('Ctrl-C twice: the last frame does not still say "press Ctrl-C again to quit"', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('\x03');
    await s.waitFor('press Ctrl-C again to quit');
    s.write('\x03');
    expect(await s.exitCode()).toBe(0);
    const screen = s.screen.screenLines().join('\n');
    expect(screen).toContain('fast (gpt-4o-mini)');
    expect(screen).not.toContain('press Ctrl-C again');
  });
});

describe('aish help', () => {
  it('aish help prints the help, as aish --help does', async () => {
    const home = tmpDir();
    const help = await runAish(['--help'], { home });
    const r = await runAish(['help'], { home });
    expect(r).toMatchObject({ code: 0, stderr: '', stdout: help.stdout });
  });

  it.each([['memory'], ['sessions'], ['checkpoints']])('aish help %s prints that command’s help', async (cmd) => {
    const home = tmpDir();
    const help = await runAish([cmd, '--help'], { home });
    expect(help.stdout).toMatch(new RegExp(`^Usage: aish ${cmd} `));
    expect(await runAish(['help', cmd], { home })).toMatchObject({ code: 0, stderr: '', stdout: help.stdout });
  });

  it('help followed by other words is still a question to ask with -p', async () => {
    const r = await runAish(['help', 'me', 'fix', 'this'], { home: tmpDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('aish: unknown command "help"; to ask once: aish -p "help me fix this" (see aish --help)\n');
  });
});

/** aish with its stdout on a device that is always full (a disk that filled up under `> out.txt`). */
function toFullDisk(args: string[], home: string, stdin = ''): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: isolatedEnv(home, fake.env()), stdio: ['pipe', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin!.end(stdin);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.runIf(existsSync('/dev/full'))('stdout that cannot be written (a full disk)', () => {
  it.each([[['-p', 'hello']], [['memory', 'list']], [['--help']], [['--version']], [['sessions', 'list']], [[]]])(
    'aish %j: one line and exit 1, never a stack trace',
    async (args) => {
      const r = await toFullDisk(args, tmpDir(), 'hello\n');
      expect(r.stderr).toMatch(/^aish: cannot write to stdout \(ENOSPC[^\n]*\n$/);
      expect(r.code).toBe(1);
    },
  );
});
