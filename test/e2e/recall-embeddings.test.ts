/**
 * Hybrid recall through the real CLI in plain mode, against the suite's server and its
 * /v1/embeddings: a paraphrase reaches the model's [recall] by meaning, and embedding a store is
 * resumed by the next aish after the one doing it is killed, without holding up its turn.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AishConfig } from '../../src/config/types';
import { vectorsPath } from '../../src/memory/embed/vector-file';
import { MemorySession } from '../../src/memory/session';
import { validateConfig } from '../../src/config/validate';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { BIN, ROOT } from '../helpers/paths';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const PARAPHRASED = 'postgres backups run nightly at 2am';

beforeEach(() => {
  fake.server.embeddings.concepts = {
    database: ['database', 'db', 'postgres'],
    backup: ['backups', 'snapshotted', 'snapshot'],
    time: ['nightly', 'when', 'daily'],
  };
});

/** A home with a config naming the suite's server for chat and embeddings, and a memory of `n` fillers and the fact. */
function setup(n: number): { home: string; cfg: string; memory: string; raw: object } {
  const home = tmpDir();
  const memory = join(home, '.local', 'share', 'aish', 'memory.jsonl');
  mkdirSync(join(memory, '..'), { recursive: true });
  const lines = ['{"meta":{"format":"aish-memory","version":1}}'];
  const texts = [...Array.from({ length: n }, (_, i) => `gardening note ${i}: tomatoes like warm soil`), PARAPHRASED];
  texts.forEach((content, i) => {
    const ts = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    lines.push(JSON.stringify({ id: i + 1, ts, kind: 'fact', content, uid: `u${i + 1}` }));
  });
  writeFileSync(memory, lines.join('\n') + '\n');
  const raw = {
    models: { local: { model: 'chat-model', baseURL: fake.server.url } },
    memory: { injectMaxChars: 0, recall: { embeddings: { model: 'embed-e2e', timeoutMs: 2000 } } },
  };
  const cfg = join(home, 'config.ts');
  writeFileSync(cfg, `export default ${JSON.stringify(raw)};\n`);
  return { home, cfg, memory, raw };
}

const texts = (from = 0) => fake.server.embeddings.requests.slice(from).reduce((n, r) => n + r.input.length, 0);

describe('hybrid recall in the REPL (plain mode)', () => {
  it('printf … | aish: a question in other words gets its fact in [recall]; the message is embedded with the configured model', async () => {
    const s = setup(40);
    // Embedded beforehand by a session of the same store (the cache is shared through the file).
    const config: AishConfig = validateConfig(s.raw, s.cfg);
    const pre = new MemorySession(config, s.memory, {}, { notice: () => {}, changed: () => {} });
    await pre.ready();
    await pre.embedding();
    pre.close();
    expect(texts()).toBe(41);
    fake.server.reset();

    const r = await runAish(['--config', s.cfg], { home: s.home, input: 'when is the db snapshotted?\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [chat] = fake.server.requests;
    expect(chat!.body.model).toBe('chat-model');
    const user = lastUserText(chat!);
    expect(user).toContain('[recall]');
    expect(user).toContain(PARAPHRASED);
    // Only the message was embedded: every item's vector came from the cache.
    expect(fake.server.embeddings.requests.map((q) => [q.model, q.input])).toEqual([['embed-e2e', ['when is the db snapshotted?']]]);

    // `aish memory plan` shows the ranks, embeds only the message, and exits.
    fake.server.reset();
    await runAish(['--config', s.cfg, 'memory', 'add', 'fact', 'a new item the plan does not embed'], { home: s.home });
    const plan = await runAish(['--config', s.cfg, 'memory', 'plan', '--json', 'when is the db snapshotted?'], { home: s.home });
    expect(plan.stderr).toBe('');
    const json = JSON.parse(plan.stdout) as { recall: Array<Record<string, unknown>>; meaning: { used: boolean } };
    expect(json.meaning.used).toBe(true);
    expect(json.recall[0]).toMatchObject({ id: 41, words_rank: null, meaning_rank: 1 });
    expect(fake.server.embeddings.requests.map((q) => q.input)).toEqual([['when is the db snapshotted?']]);
  });

  it('a server slower than the time limit: the turn goes out by words, :memory plan says so, and quitting does not wait for embedding', async () => {
    const s = setup(2000);
    writeFileSync(
      s.cfg,
      `export default ${JSON.stringify({ ...s.raw, memory: { injectMaxChars: 0, recall: { embeddings: { model: 'embed-e2e' } } } })};\n`,
    );
    fake.server.embeddings.delayMs = 1000;
    const r = await runAish(['--config', s.cfg], { home: s.home, input: 'postgres backups?\n:memory plan postgres backups?\n' });
    expect(r.code).toBe(0);
    expect(lastUserText(fake.server.requests[0]!)).toContain(PARAPHRASED); // by words
    expect(r.stdout).toMatch(/meaning \(embed-e2e\): words only: embeddings "embed-e2e" at \S+ did not answer within 300 ms/);
    expect(r.stdout).toMatch(/\[recall\] 1 item/);
    // 2001 items need 32 batches: aish quit long before they were done.
    expect(fake.server.embeddings.requests.filter((q) => q.input.length > 1).length).toBeLessThan(32);
  });

  it('killed while embedding, the next aish goes on from the last whole batch, and its turn does not wait for it', async () => {
    const s = setup(999);
    fake.server.embeddings.delayMs = 150;
    const env = isolatedEnv(s.home, { CI: undefined });
    const first = spawn(process.execPath, [BIN, '--config', s.cfg], { cwd: ROOT, env, stdio: ['pipe', 'ignore', 'ignore'] });
    // Batches go one after another: by the fourth request, three are written.
    await fake.server.embeddings.waitForRequests(4, 20_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.on('close', r));
    const bytes = readFileSync(vectorsPath(s.memory));
    const header = 16 + bytes.readUInt32LE(8);
    const record = 16 + 4 * 4; // key, then 3 concepts and the bias dimension
    const kept = Math.floor((bytes.length - header) / record);
    expect(kept).toBeGreaterThanOrEqual(3 * 64);
    expect(kept).toBeLessThan(1000);

    fake.server.reset();
    fake.server.embeddings.delayMs = 150;
    const second = spawn(process.execPath, [BIN, '--config', s.cfg], { cwd: ROOT, env, stdio: ['pipe', 'ignore', 'ignore'] });
    second.stdin.write('hello there\n');
    await fake.server.waitForRequests(1, 20_000);
    // The turn went out while the store was still being embedded.
    const rest = Math.ceil((1000 - kept) / 64);
    expect(fake.server.embeddings.requests.length).toBeLessThan(rest);
    await waitUntil(() => statSync(vectorsPath(s.memory)).size === header + 1000 * record, 'every item embedded', { timeoutMs: 30_000 });
    second.stdin.end();
    await new Promise((r) => second.on('close', r));
    expect(texts()).toBe(1000 - kept + 1); // the rest, and the message
  });
});
