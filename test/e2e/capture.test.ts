/**
 * Capture through the real CLI and the fake OpenAI server: a piped session leaves candidates in the
 * inbox (never in memory.jsonl) and a digest in its log; review keeps exactly what is accepted;
 * a long session under a small window says so, and `aish -c` resumes with the [session] block.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPTURE_INSTRUCTION } from '../../src/memory/review/capture-prompt';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, type RecordedRequest, type Reply } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const waitFor = (cond: () => boolean, timeoutMs: number) => waitUntil(cond, 'capture', { timeoutMs, intervalMs: 50 });

const isCapture = (req: RecordedRequest) => req.body?.messages?.[0]?.content === CAPTURE_INSTRUCTION;
const captureBody = (req: RecordedRequest): string => req.body.messages[1]!.content;

/** Like a model: the goal is the transcript's first user line. */
function captureReply(req: RecordedRequest, memory: string[]): Reply {
  const transcript = captureBody(req).split('Transcript:\n')[1] ?? '';
  const first = /^user: (.*)$/m.exec(transcript)?.[1] ?? '';
  return {
    text: [
      'TITLE: Billing migration TITLEWORD',
      'SUMMARY: The user moved billing to Postgres; the summary mentions SUMMARYWORD.',
      `GOAL: ${first.slice(0, 120)}`,
      'CURRENT: schema migrated',
      'DECISIONS:',
      '- keep the old replica until Friday',
      'NEXT STEPS:',
      '- switch the reads',
      'MEMORY:',
      ...memory.map((m) => `- ${m}`),
    ].join('\n'),
  };
}

function sessionLogs(home: string): string[] {
  const dir = join(home, 'data', 'sessions');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => join(dir, f));
}

/** A capture handed off at quit may still be writing: the temp dir must outlive it. */
const capturesDone = (home: string) =>
  waitFor(
    () => !existsSync(join(home, 'data', 'sessions')) || !readdirSync(join(home, 'data', 'sessions')).some((f) => f.endsWith('.capturing')),
    15_000,
  );

/** The fields of inbox.jsonl records these tests look at. */
interface InboxLine {
  content?: string;
  redacted?: unknown[];
  [field: string]: unknown;
}
const inboxLines = (home: string): InboxLine[] =>
  existsSync(join(home, 'data', 'inbox.jsonl'))
    ? readFileSync(join(home, 'data', 'inbox.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as InboxLine)
    : [];

describe('capture (real CLI)', () => {
  const fake = useFakeOpenAI();
  // The helpers turn capture off (AISH_CAPTURE=off); here the config decides, as for a user.
  const captureEnv = (): Record<string, string | undefined> => ({ ...fake.env(), AISH_CAPTURE: undefined });

  it('a piped session leaves redacted candidates with provenance in inbox.jsonl, memory.jsonl untouched; review stores exactly the accepted ones', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'data')];
    const memory = [
      'fact: billing runs on Postgres 16',
      'pref: the user wants migration scripts idempotent',
      'context: staging token is ghp_0123456789abcdefghijABCDEFGHIJ012345',
      'fact: the replica is kept until Friday',
    ];
    fake.server.setDefault((req) => (isCapture(req) ? captureReply(req, memory) : { text: `echo: ${lastUserText(req)}` }));
    await runAish([...data, 'memory', 'add', 'fact', 'billing runs on Postgres 12'], { home, env: captureEnv() });
    const memBefore = readFileSync(join(home, 'data', 'memory.jsonl'), 'utf8');

    const prompts = [
      'we move billing to Postgres 16',
      'make the scripts idempotent please',
      'the staging token is ghp_0123456789abcdefghijABCDEFGHIJ012345',
      'keep the replica until Friday',
    ];
    const run = await runAish(data, { home, env: captureEnv(), input: prompts.join('\n') + '\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('inbox:'); // nothing waited at quit

    // Right after exit: review --json waits for the capture still running.
    const listed = JSON.parse((await runAish([...data, 'memory', 'review', '--json'], { home })).stdout) as unknown[];
    expect(listed).toHaveLength(4);
    const cands = inboxLines(home);
    expect(cands.map((c) => c.content)).toEqual([
      'billing runs on Postgres 16',
      'the user wants migration scripts idempotent',
      expect.stringMatching(/^staging token is \[redacted/i),
      'the replica is kept until Friday',
    ]);
    expect(JSON.stringify(cands)).not.toContain('ghp_0123456789');
    const [log] = sessionLogs(home);
    const session = log!
      .split('/')
      .pop()!
      .replace(/\.jsonl$/, '');
    expect(cands[0]).toMatchObject({ id: 1, kind: 'fact', supersedes: 1, source: { session, quote: 'we move billing to Postgres 16' } });
    expect(cands[2]!.redacted?.length).toBeGreaterThan(0);
    expect(readFileSync(join(home, 'data', 'memory.jsonl'), 'utf8')).toBe(memBefore);
    // The summarizer read the conversation and the item it may supersede.
    const req = fake.server.requests.find(isCapture)!;
    expect(captureBody(req)).toContain('#1 (fact) billing runs on Postgres 12');
    expect(captureBody(req)).toContain('user: keep the replica until Friday');

    // y keeps #1 (superseding memory #1), n drops, e edits, s skips.
    const review = await runAish(data, {
      home,
      env: captureEnv(),
      input: ':memory review\ny\nn\ne\nstaging token lives in the vault\ns\n',
    });
    expect(review.code).toBe(0);
    const items = JSON.parse((await runAish([...data, 'memory', 'list', '--json'], { home })).stdout) as Array<{ content: string }>;
    expect(items.map((i) => i.content).sort()).toEqual(['billing runs on Postgres 16', 'staging token lives in the vault']);
    const pending = JSON.parse((await runAish([...data, 'memory', 'review', '--json'], { home })).stdout) as Array<{ content: string }>;
    expect(pending.map((p) => p.content)).toEqual(['the replica is kept until Friday']);

    // The session got a title and summary: listed and searchable.
    const list = await runAish([...data, 'sessions', 'list'], { home });
    expect(list.stdout).toContain('Billing migration TITLEWORD');
    const found = await runAish([...data, 'sessions', 'search', 'summaryword', '--json'], { home });
    expect(JSON.parse(found.stdout)).toEqual([expect.objectContaining({ session, role: 'summary' })]);
    await capturesDone(home);
  });

  it("a continued session is captured again without the earlier capture's answer in the request", async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'data')];
    fake.server.setDefault((req) =>
      isCapture(req) ? captureReply(req, ['fact: ANSWERONLY-candidate']) : { text: `echo: ${lastUserText(req)}` },
    );
    await runAish(data, { home, env: captureEnv(), input: 'one\ntwo\nthree\nfour\n' });
    await waitFor(() => fake.server.requests.filter(isCapture).length === 1 && inboxLines(home).length === 1, 15_000);
    await capturesDone(home);
    const cont = await runAish([...data, '-c'], { home, env: captureEnv(), input: 'five\nsix\nseven\neight\n' });
    // A notice: on stderr, so stdout stays the answers.
    expect(cont.stdout).not.toContain('inbox:');
    expect(cont.stderr).toContain(
      'aish: inbox: 1 memory candidate waits for review; this session is being read for more in the background — aish memory review (or :memory review)\n',
    );
    await waitFor(() => fake.server.requests.filter(isCapture).length === 2, 15_000);
    const second = captureBody(fake.server.requests.filter(isCapture)[1]!);
    expect(second).toContain('user: eight');
    expect(second).not.toContain('ANSWERONLY');
    expect(second).not.toContain('TITLEWORD');
    expect(second).not.toContain('SUMMARYWORD');
    await capturesDone(home);
  });

  it('a 200-turn session under an 8k window reports the eviction, and aish -c resumes with the goal in [session]', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'data')];
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { context: { maxTokens: 8000 } };\n');
    fake.server.setDefault((req) => (isCapture(req) ? captureReply(req, []) : { text: `noted: ${lastUserText(req).slice(0, 200)}` }));
    const filler = 'the quick brown fox jumps over the lazy dog '.repeat(4);
    const prompts = [
      'GOAL-7731: migrate the billing service to Postgres 16',
      ...Array.from({ length: 199 }, (_, i) => `step ${i + 2}: ${filler}`),
    ];
    const run = await runAish(['--config', cfg, ...data], { home, env: captureEnv(), input: prompts.join('\n') + '\n', timeoutMs: 90_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/context full: \d+ oldest turns left the window \(summarised into the working state\)/);
    expect(run.stderr.match(/context full/g)).toHaveLength(1);

    const before = fake.server.requests.length;
    const resumed = await runAish(['--config', cfg, ...data, '-c'], {
      home,
      env: captureEnv(),
      input: 'where were we?\n',
      timeoutMs: 30_000,
    });
    expect(resumed.code).toBe(0);
    const first = fake.server.requests.slice(before).find((r) => !isCapture(r))!;
    const system = first.body.messages[0]!.content;
    expect(system).toContain('[session]');
    expect(system).toMatch(/\*\*Goal:\*\* GOAL-7731: migrate the billing service/);
    await capturesDone(home);
  }, 150_000);

  it('with capture "off" no model call is made at quit or during the session', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, "export default { memory: { capture: 'off' } };\n");
    const run = await runAish(['--config', cfg, '--data-dir', join(home, 'data')], {
      home,
      env: captureEnv(),
      input: 'a\nb\nc\nd\ne\n:clear\nf\n',
    });
    expect(run.code).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.server.requests).toHaveLength(6);
    expect(fake.server.requests.some(isCapture)).toBe(false);
    expect(existsSync(join(home, 'data', 'inbox.jsonl'))).toBe(false);
  });
});
