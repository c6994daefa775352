/**
 * Secrets typed or pasted are never kept as typed, on every path that keeps text: `aish memory add`,
 * `:remember`, `aish memory import` (content, tags, source) and `aish memory export`, the REPL's
 * input history, the session log's memory_remember calls, `:export` and `aish sessions export`
 * (`--raw` keeps the text on purpose). The samples are test/memory/secrets-corpus.ts; each test
 * counts the secrets found stored as typed and expects 0.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { leaked, SECRET_SAMPLES, type SecretSample } from '../memory/secrets-corpus';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());
const dataDir = (home: string) => join(home, '.local', 'share', 'aish');
const memFile = (home: string) => join(dataDir(home), 'memory.jsonl');
/** One line each: the REPL reads lines. */
const ONE_LINE = SECRET_SAMPLES.map((s) => ({ ...s, text: s.text.replace(/\n/g, ' ') }));

/** The samples whose secret is in `stored` as typed. */
const storedAsTyped = (stored: string, samples: readonly SecretSample[]) => samples.filter((s) => leaked(s, stored)).map((s) => s.from);

describe('secrets are not stored as typed', () => {
  it(`aish memory add: ${SECRET_SAMPLES.length} samples, 0 stored as typed`, { timeout: 180_000 }, async () => {
    const home = tmpDir();
    for (const [i, s] of SECRET_SAMPLES.entries()) {
      const r = await runAish(['memory', 'add', 'fact', `note ${i}: ${s.text}`], { home, env: fake.env() });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/redacted: /);
    }
    expect(storedAsTyped(readFileSync(memFile(home), 'utf8'), SECRET_SAMPLES)).toEqual([]);
  });

  it(':remember in the REPL (piped) and the memory_remember call in the session log: 0 stored as typed', { timeout: 60_000 }, async () => {
    const home = tmpDir();
    const input = ONE_LINE.map((s, i) => `:remember ${i} ${s.text}`).join('\n') + '\nplease remember my key\nn\n';
    fake.server.enqueue(
      {
        toolCalls: ONE_LINE.slice(0, 20).map((s, i) => ({
          id: `m${i}`,
          name: 'memory_remember',
          arguments: JSON.stringify({ id: i + 1, ts: new Date().toISOString(), kind: 'fact', content: s.text }),
        })),
      },
      { text: 'ok' },
    );
    const r = await runAish([], { home, env: fake.env(), input });
    expect(r.code, r.stderr).toBe(0);
    expect(storedAsTyped(readFileSync(memFile(home), 'utf8'), ONE_LINE)).toEqual([]);
    const sessions = join(dataDir(home), 'sessions');
    const logs = readdirSync(sessions).map((f) => readFileSync(join(sessions, f), 'utf8'));
    expect(logs.join('')).toContain('memory_remember');
    expect(storedAsTyped(logs.join('\n'), ONE_LINE.slice(0, 20))).toEqual([]);
  });

  it('aish memory import redacts content, tags and source; aish memory export writes none back', { timeout: 60_000 }, async () => {
    const home = tmpDir();
    const file = join(home, 'import.jsonl');
    const lines = SECRET_SAMPLES.map((s, i) =>
      JSON.stringify({
        id: i + 1,
        ts: new Date().toISOString(),
        kind: 'fact',
        content: `item ${i}: ${s.text}`,
        tags: ['ops', s.text],
        source: `notes ${s.text}`,
      }),
    );
    writeFileSync(file, lines.join('\n') + '\n');
    const r = await runAish(['memory', 'import', file], { home, env: fake.env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/imported \d+ items/);
    expect(storedAsTyped(readFileSync(memFile(home), 'utf8'), SECRET_SAMPLES)).toEqual([]);
    for (const format of ['jsonl', 'md']) {
      const out = await runAish(['memory', 'export', '--format', format], { home, env: fake.env() });
      expect(out.code).toBe(0);
      expect(out.stdout).toContain('[redacted]');
      expect(storedAsTyped(out.stdout, SECRET_SAMPLES)).toEqual([]);
    }
  });

  it(
    'aish memory import of a 9 MB item: no crash in the redaction (once a stack overflow), nothing kept as typed',
    { timeout: 120_000 },
    async () => {
      const home = tmpDir();
      const file = join(home, 'big.jsonl');
      // Short words with spaces (a run the old spaced-out-key regex took whole) and a secret at the end.
      const content = `${'note words here '.repeat(600_000)}DB_PASSWORD=hunter2`;
      writeFileSync(file, JSON.stringify({ id: 1, ts: new Date().toISOString(), kind: 'fact', content }) + '\n');
      const r = await runAish(['memory', 'import', file], { home, env: fake.env(), timeoutMs: 110_000 });
      expect(r.stderr).not.toMatch(/Maximum call stack|RangeError|\n\s+at /);
      // Imported redacted, or left out and named when a line that long is over the import's bound.
      if (existsSync(memFile(home))) expect(readFileSync(memFile(home), 'utf8')).not.toContain('hunter2');
      if (r.code === 0) expect(r.stdout + r.stderr).toMatch(/imported|line 1/);
      else expect(r.stderr.trim().split('\n')).toHaveLength(1);
    },
  );

  it('aish memory export redacts items, tags and sources that reached memory.jsonl by hand', async () => {
    const home = tmpDir();
    const s = SECRET_SAMPLES.find((x) => x.from === 'github-pat')!;
    await runAish(['memory', 'add', 'fact', 'placeholder'], { home, env: fake.env() });
    const hand = JSON.stringify({
      id: 9,
      ts: new Date().toISOString(),
      kind: 'fact',
      content: `hand ${s.secret}`,
      tags: [s.secret],
      source: s.secret,
    });
    writeFileSync(memFile(home), readFileSync(memFile(home), 'utf8') + hand + '\n');
    const out = await runAish(['memory', 'export'], { home, env: fake.env() });
    expect(out.stdout).toContain('hand [redacted]');
    expect(out.stdout).not.toContain(s.secret);
  });

  it(':export and aish sessions export redact the conversation; --raw keeps it', { timeout: 60_000 }, async () => {
    const home = tmpDir();
    const samples = ONE_LINE.slice(0, 30);
    const out = join(home, 'chat.md');
    const raw = join(home, 'raw.md');
    const input = samples.map((s) => s.text).join('\n') + `\n:export ${out}\n:export --raw ${raw}\n`;
    const r = await runAish([], { home, env: fake.env(), input });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(secrets kept: --raw)');
    expect(storedAsTyped(readFileSync(out, 'utf8'), samples)).toEqual([]);
    // --raw is the text as it was: every secret is there.
    expect(storedAsTyped(readFileSync(raw, 'utf8'), samples)).toHaveLength(samples.length);
    const name = readdirSync(join(dataDir(home), 'sessions'))[0]!.replace(/\.jsonl$/, '');
    for (const format of ['md', 'json']) {
      const e = await runAish(['sessions', 'export', name, '--format', format], { home, env: fake.env() });
      expect(e.code, e.stderr).toBe(0);
      expect(storedAsTyped(e.stdout, samples)).toEqual([]);
    }
    const e = await runAish(['sessions', 'export', name, '--raw'], { home, env: fake.env() });
    expect(storedAsTyped(e.stdout, samples)).toHaveLength(samples.length);
  });

  it('input history in a terminal: what was typed is kept for ↑ with its secrets redacted', { timeout: 120_000 }, async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('fast (gpt-4o-mini)');
    const samples = ONE_LINE.filter((x) => !/[\u200b-\u200d\uff00-\uffef]/.test(x.text)).slice(0, 25);
    for (const [i, x] of samples.entries()) {
      const from = s.text().length;
      s.write(`:remember ${i} ${x.text}`);
      await s.settle(50);
      s.write('\r');
      await s.waitFor(/memory: (added|already)/, { from });
    }
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    const history = readFileSync(join(dataDir(home), 'input-history'), 'utf8');
    expect(history.trim().split('\n')).toHaveLength(samples.length);
    expect(storedAsTyped(history, samples)).toEqual([]);
    expect(storedAsTyped(readFileSync(memFile(home), 'utf8'), samples)).toEqual([]);
  });
});
