/**
 * Start-up in a real terminal: Ctrl-C ends a start stuck in the config, a bad --resume exits at
 * once, nothing is drawn before Ink's first frame, and a start shows only what this start loaded.
 */
import { spawn } from '@lydell/node-pty';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { BIN, ROOT } from '../helpers/paths';
import { spawnAish, stripAnsi, type PtySession } from '../helpers/pty';
import { isolatedEnv } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const live: PtySession[] = [];
const kills: Array<() => void> = [];
afterAll(() => {
  live.forEach((s) => s.kill());
  kills.forEach((k) => k());
});

function start(args: string[], home: string, env: Record<string, string> = {}): PtySession {
  const s = spawnAish(args, { home, env: { ...fake.env(), ...env } });
  live.push(s);
  return s;
}

/** Ink's frames start with the synchronized-output mark; nothing else aish writes does. */
const INK_FRAME = '\x1b[?2026h';

/** What was written before Ink's first frame, as visible text. */
const beforeFirstFrame = (s: PtySession) => stripAnsi(s.raw().slice(0, s.raw().indexOf(INK_FRAME)));

/**
 * A config that writes `mark` and then never finishes loading: `hang` is what it does next. aish
 * runs under `sh`, which traps SIGINT so it survives the Ctrl-C and reports aish's status as $?.
 */
function stuckInConfig(hang: string, args: string[]) {
  const home = tmpDir();
  const mark = join(home, 'loading');
  const config = join(home, 'config.ts');
  writeFileSync(config, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, '');\n${hang}\n`);
  const env = isolatedEnv(home, { TERM: 'xterm-256color', CI: undefined, ...fake.env(), AISH_CONFIG: config });
  const script = `trap : INT; ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} ${args.join(' ')}; echo "status=$?"`;
  const pty = spawn('/bin/sh', ['-c', script], {
    name: 'xterm-256color',
    cols: 100,
    rows: 30,
    cwd: ROOT,
    env,
  });
  kills.push(() => {
    try {
      pty.kill('SIGKILL');
    } catch {
      // already gone
    }
  });
  let out = '';
  pty.onData((d) => (out += d));
  const exited = new Promise<void>((r) => pty.onExit(() => r()));
  return { pty, mark, output: () => out, exited };
}

describe('Ctrl-C while the config is loading', () => {
  const cases: Array<[string, string]> = [
    ['never settles', 'export default new Promise(() => {});'],
    ['loops on the main thread', 'while (true) {}\nexport default {};'],
  ];
  for (const [what, hang] of cases) {
    for (const args of [[], ['--no-memory']]) {
      it(`ends aish with status 130 within 1 s when the config ${what} (aish ${args.join(' ')})`, async () => {
        const run = stuckInConfig(hang, args);
        await waitUntil(() => existsSync(run.mark), 'the config to start loading', { timeoutMs: 15_000 });
        const sent = Date.now();
        run.pty.write('\x03');
        await waitUntil(() => run.output().includes('status='), 'aish to end', { timeoutMs: 5_000 });
        const took = Date.now() - sent;
        expect(run.output()).toContain('status=130');
        expect(took).toBeLessThan(1000);
        await run.exited;
      });
    }
  }
});

describe('errors before the UI', () => {
  it('--resume with an unknown name exits 1 at once with one line, no frame drawn', async () => {
    const s = start(['--resume', 'nosuch'], tmpDir());
    expect(await s.exitCode(5_000)).toBe(1);
    expect(s.text().trim()).toBe('aish: no session "nosuch" — see aish sessions list');
    expect(s.raw()).not.toContain(INK_FRAME);
  });

  it('a config error exits 2 with its line and nothing else on screen', async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), 'export default { this is not valid');
    const s = start([], home);
    expect(await s.exitCode()).toBe(2);
    expect(s.text()).toMatch(/^aish: config .*\r\n$/);
  });
});

describe('nothing is drawn before Ink', () => {
  async function savedSession(home: string): Promise<void> {
    const s = start([], home);
    await s.waitFor('mem 0');
    s.write('first question\r');
    await s.waitFor('echo: first question');
    s.write(':save kept\r');
    await s.waitFor('kept');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  }

  it('plain aish, -c and --resume NAME: the first thing on screen is Ink’s frame', async () => {
    const home = tmpDir();
    await savedSession(home);
    for (const args of [[], ['-c'], ['--resume', 'kept']]) {
      const s = start(args, home);
      await s.waitFor(/mem \d+/);
      expect(beforeFirstFrame(s).trim(), `aish ${args.join(' ')}`).toBe('');
      if (args.length) await s.waitFor('first question');
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
      // One prompt and one status line in the whole scrollback: Ink's last frame, nothing drawn before it.
      const lines = s.screen.allLines();
      expect(
        lines.filter((l) => l.trim() === '›'),
        lines.join('\n'),
      ).toHaveLength(1);
      expect(
        lines.filter((l) => /mem \d+ │ ctx/.test(l)),
        lines.join('\n'),
      ).toHaveLength(1);
    }
  });
});

describe('a start shows what this start loaded', () => {
  it('after editing a module the config imports, the old model name is never drawn', async () => {
    const home = tmpDir();
    const dir = join(home, '.config', 'aish');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'config.ts'),
      "import { MODEL } from './models.ts';\nexport default { defaultModel: 'main', models: { main: { model: MODEL } } };\n",
    );
    const models = (name: string) => writeFileSync(join(dir, 'models.ts'), `export const MODEL = ${JSON.stringify(name)};\n`);
    models('old-model-name');
    const first = start([], home);
    await first.waitFor('main (old-model-name)');
    await first.waitFor('mem 0');
    first.write('\x04');
    expect(await first.exitCode()).toBe(0);

    models('new-model-name');
    const second = start([], home);
    await second.waitFor('main (new-model-name)');
    await second.waitFor('mem 0');
    second.write('\x04');
    expect(await second.exitCode()).toBe(0);
    // Every byte of the second start, escape sequences included.
    expect(second.raw()).not.toContain('old-model');
  });
});
