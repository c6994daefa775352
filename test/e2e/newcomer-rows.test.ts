/** Rows a newcomer met on the command line: the text plan, exit codes without a key, -e's hint, -c after a rewind, search copies, a base URL without /v1. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const ptys: PtySession[] = [];
afterAll(() => ptys.forEach((p) => p.kill()));

function seed(path: string, newer: number): void {
  const lines = [
    JSON.stringify({ id: 1, ts: '2025-01-01T10:00:00Z', kind: 'fact', content: 'the staging database lives on host zebra-17' }),
  ];
  for (let k = 0; k < newer; k++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString();
    lines.push(JSON.stringify({ id: 2 + k, ts, kind: 'fact', content: `note ${k}: the build is fast and the tests are green (${k})` }));
  }
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.join('\n') + '\n');
}

describe('aish memory plan (text)', () => {
  it('prints each [recall] item once', async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    seed(join(data, 'memory.jsonl'), 200);
    const r = await runAish(['--data-dir', data, 'memory', 'plan', 'where does the staging database live?'], { home, cwd: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const recall = r.stdout.split('\n').filter((l) => l.includes('#1 (fact)'));
    expect(recall).toHaveLength(1);
    expect(recall[0]).toMatch(/^ {2}\d\.\d\d {2}#1 \(fact\) the staging database lives on host zebra-17/);
  });
});

describe('no API key is a configuration error: exit 2 in every one-shot mode', () => {
  const NO_KEY = 'aish: no API key for https://api.openai.com/v1 — set OPENAI_API_KEY, or apiKeyEnv in models.fast\n';
  it.each([
    ['-p', ['-p', 'hi']],
    ['--norris', ['--norris', 'tidy up']],
    ['-e', ['-e', 'list big files']],
  ])('%s', async (_flag, args) => {
    const r = await runAish(args, { home: tmpDir(), env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined } });
    expect(r.stderr).toBe(NO_KEY);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });
});

describe('aish -e in a terminal with unreadable memory lines', () => {
  it("names the shell's command (aish memory list), not the REPL's :memory inject", async () => {
    const home = tmpDir();
    const data = join(home, '.local', 'share', 'aish');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'memory.jsonl'), '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"ok"}\n{broken\n');
    fake.server.enqueue({ text: 'COMMAND: ls -la\nEXPLANATION: lists files' });
    const s = spawnAish(['-e', 'list files'], { home, env: fake.env() });
    ptys.push(s);
    await s.waitFor('[q]uit');
    expect(s.text()).toContain('memory.jsonl: 1 unreadable line skipped (see aish memory list)');
    expect(s.text()).not.toContain(':memory inject');
    s.write('q');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('aish -c after the only exchange was rewound', () => {
  it('does not reach back to an older session from another directory: nothing to continue', async () => {
    const home = tmpDir();
    const env = fake.env();
    const elsewhere = tmpDir();
    const here = tmpDir();
    expect((await runAish([], { home, env, cwd: elsewhere, input: 'old question elsewhere\n:quit\n' })).code).toBe(0);
    expect((await runAish([], { home, env, cwd: here, input: 'the only question\n:rewind\n:quit\n' })).code).toBe(0);
    fake.server.reset();
    const r = await runAish(['-c'], { home, env, cwd: here, input: 'and now?\n:quit\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('no earlier session to continue — starting a new one');
    const [req] = await fake.server.waitForRequests(1);
    const said = req!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(said).toEqual(['and now?']);
  });

  it('after a later answered exchange it continues as before', async () => {
    const home = tmpDir();
    const env = fake.env();
    expect((await runAish([], { home, env, input: 'first\n:rewind\nsecond\n:quit\n' })).code).toBe(0);
    fake.server.reset();
    expect((await runAish(['-c'], { home, env, input: 'third\n:quit\n' })).code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    expect(req!.body.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['second', 'third']);
  });
});

describe('aish sessions search', () => {
  it('shows a turn once, whatever copies :save, :fork and -c made of its conversation', async () => {
    const home = tmpDir();
    const env = fake.env();
    const first = await runAish([], {
      home,
      env,
      input: 'where is the zebra database\n:save saved-one\n:fork forked-one\nmore words\n:quit\n',
    });
    expect(first.code).toBe(0);
    expect((await runAish(['-c'], { home, env, input: 'and the rest\n:quit\n' })).code).toBe(0);
    const r = await runAish(['sessions', 'search', 'zebra'], { home, env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2); // the prompt and its answer
    expect(lines.filter((l) => / user /.test(l))).toHaveLength(1);
    expect(lines.filter((l) => / assistant /.test(l))).toHaveLength(1);
    expect(lines.every((l) => l.startsWith('forked-one ') || l.startsWith('saved-one '))).toBe(true);
  });
});

describe('a base URL without /v1 (the usual Ollama slip)', () => {
  it('aish -p says the server has no /chat/completions there and names the URL that answers', async () => {
    const home = tmpDir();
    const root = fake.server.url.replace(/\/v1$/, '');
    const config = join(home, 'config.ts');
    writeFileSync(
      config,
      `export default { defaultModel: 'local', models: { local: { model: 'm', baseURL: ${JSON.stringify(root)} } } };\n`,
    );
    const r = await runAish(['--config', config, '-p', 'hi'], { home, env: { OPENAI_API_KEY: undefined } });
    expect(r.stderr).toBe(
      `aish: ${root} has no /chat/completions (404): Unknown request URL: POST /chat/completions — it answers at ${root}/v1: set models.local.baseURL to '${root}/v1'\n`,
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toEqual([]);
  });
});
