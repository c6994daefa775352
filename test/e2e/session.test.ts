import { appendFileSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const sessionsDir = (home: string) => join(home, '.local', 'share', 'aish', 'sessions');

describe(':history', () => {
  it('prints exactly the messages the server then receives, system prompt first', async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.local', 'share', 'aish'), { recursive: true });
    writeFileSync(
      join(home, '.local', 'share', 'aish', 'memory.jsonl'),
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"User likes tea."}\n',
    );
    fake.server.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const r = await runAish([], { home, env: env(), input: 'first question\n:history --json\nsecond question\n' });
    expect(r.code).toBe(0);
    const json = r.stdout.slice(r.stdout.indexOf('['), r.stdout.lastIndexOf(']') + 1);
    const history = JSON.parse(json) as Array<{ role: string; content: string }>;
    const reqs = await fake.server.waitForRequests(2);
    expect(reqs[1]!.body.messages.slice(0, -1)).toEqual(history);
    expect(reqs[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'second question' });
    expect(history[0]!.role).toBe('system');
    expect(history[0]!.content).toContain('[background] (memory loaded at startup; managed via :memory)\n- (fact) User likes tea.');
  });

  it('the readable form shows each message whole with its role', async () => {
    fake.server.enqueue({ text: 'an answer' });
    const r = await runAish([], { home: tmpDir(), env: env(), input: 'a question\n:history\n' });
    expect(r.stdout).toMatch(/── system ──\nYou are aish[\s\S]*── user ──\na question\n── assistant ──\nan answer\n$/);
  });
});

describe('session log', () => {
  it('each turn is on disk before the next prompt is read', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'one' });
    // the second "prompt" is a shell command that prints the session log as it is at that moment
    const dir = sessionsDir(home);
    const r = await runAish([], { home, env: env(), input: `hello\n!cat "${dir}"/*.jsonl\n` });
    expect(r.code).toBe(0);
    const logged = r.stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(logged).toHaveLength(3);
    expect(JSON.parse(logged[0]!)).toMatchObject({ meta: { version: 1 } });
    expect(JSON.parse(logged[1]!)).toMatchObject({ role: 'user', content: 'hello' });
    expect(JSON.parse(logged[2]!)).toMatchObject({ role: 'assistant', content: 'one' });
  });

  it(':save x, restart, :resume x continues with the earlier turns in the request', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'Paris.' });
    const a = await runAish([], { home, env: env(), input: 'capital of France?\n:save geo\n' });
    expect(a.stdout).toContain('saved as geo');
    fake.server.enqueue({ text: 'Berlin.' });
    const b = await runAish([], { home, env: env(), input: ':resume geo\nand Germany?\n' });
    expect(b.stdout).toContain('resumed geo: 1 turn');
    const reqs = await fake.server.waitForRequests(2);
    expect(reqs[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'capital of France?' },
      { role: 'assistant', content: 'Paris.' },
      { role: 'user', content: 'and Germany?' },
    ]);
    // the same through the command line
    fake.server.enqueue({ text: 'Rome.' });
    const c = await runAish(['--resume', 'geo'], { home, env: env(), input: 'and Italy?\n' });
    expect(c.code).toBe(0);
    expect((await fake.server.waitForRequests(3))[2]!.body.messages.slice(1, 3)).toEqual([
      { role: 'user', content: 'capital of France?' },
      { role: 'assistant', content: 'Paris.' },
    ]);
  });

  it('aish -c continues the latest session', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' }, { text: 'A2' });
    await runAish([], { home, env: env(), input: 'Q1\n' });
    const r = await runAish(['-c'], { home, env: env(), input: 'Q2\n' });
    expect(r.code).toBe(0);
    expect((await fake.server.waitForRequests(2))[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
    ]);
  });

  it('a torn last line is skipped with a warning', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'kept' });
    await runAish([], { home, env: env(), input: 'keep me\n:save torn\n' });
    appendFileSync(join(sessionsDir(home), 'torn.jsonl'), '{"ts":"2026-01-01T00:00:00Z","role":"user","content":"cut of');
    fake.server.enqueue({ text: 'ok' });
    const r = await runAish(['--resume', 'torn'], { home, env: env(), input: 'next\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('aish: warning: torn.jsonl:4: incomplete last line (an interrupted write?)\n');
    expect((await fake.server.waitForRequests(2))[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'keep me' },
      { role: 'assistant', content: 'kept' },
      { role: 'user', content: 'next' },
    ]);
  });

  it('refuses session names with / or ..', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'x' });
    const r = await runAish([], { home, env: env(), input: 'hi\n:save ../evil\n:save a/b\n:resume ../x\n' });
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(3);
    for (const e of errs) expect(e).toMatch(/^aish: invalid session name ".*" — use letters, digits/);
    expect(readdirSync(sessionsDir(home))).toHaveLength(1);
    expect(readdirSync(join(home, '.local', 'share', 'aish'))).toEqual(['sessions']); // nothing written outside sessions/
  });

  it('aish sessions list shows saved and recent sessions', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'x' });
    await runAish([], { home, env: env(), input: 'list me please\n:save listed\n' });
    const r = await runAish(['sessions', 'list', '--json'], { home, env: env() });
    const list = JSON.parse(r.stdout) as Array<{ name: string; named: boolean; turns: number; firstPrompt: string }>;
    expect(list.map((s) => [s.name, s.named, s.turns, s.firstPrompt]).sort()).toEqual(
      [
        [expect.stringMatching(/^\d{8}-\d{6}-\d+$/), false, 1, 'list me please'],
        ['listed', true, 1, 'list me please'],
      ].sort(),
    );
    const files = readdirSync(sessionsDir(home));
    for (const f of files) expect(readFileSync(join(sessionsDir(home), f), 'utf8').split('\n')[0]).toMatch(/^\{"meta":/);
  });

  it('a digest line gives aish sessions list its title and summary, search its words, and survives --resume', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'done' });
    await runAish([], { home, env: env(), input: 'tidy the repo\n:save tidy\n' });
    const path = join(sessionsDir(home), 'tidy.jsonl');
    const digest = { ts: '2026-05-13T19:00:00.000Z', title: 'Repo cleanup', summary: 'Removed the obsolete gizmo module.', userTurns: 1 };
    appendFileSync(path, JSON.stringify({ meta: { digest } }) + '\n');
    const list = JSON.parse((await runAish(['sessions', 'list', '--json'], { home })).stdout) as Array<Record<string, unknown>>;
    expect(list.find((s) => s.name === 'tidy')).toMatchObject({
      turns: 1,
      firstPrompt: 'tidy the repo',
      title: 'Repo cleanup',
      summary: digest.summary,
    });
    const text = await runAish(['sessions', 'list'], { home });
    expect(text.stdout).toMatch(/^\+ tidy +\S+ +1 turn {3}Repo cleanup$/m);
    const hit = await runAish(['sessions', 'search', 'gizmo'], { home });
    expect(hit.code).toBe(0);
    expect(hit.stdout).toMatch(/^tidy +\S+ {2}summary {4}Removed the obsolete gizmo module\.\n$/);
    fake.server.enqueue({ text: 'more done' });
    expect((await runAish(['--resume', 'tidy'], { home, env: env(), input: 'and the docs\n' })).code).toBe(0);
    const logs = readdirSync(sessionsDir(home)).map((f) => readFileSync(join(sessionsDir(home), f), 'utf8').split('\n'));
    const resumed = logs.find((l) => (JSON.parse(l[0]!) as { meta: { resumedFrom?: string } }).meta.resumedFrom === 'tidy');
    expect(resumed?.[1]).toBe(JSON.stringify({ meta: { digest } }));
    expect(resumed?.slice(2, 5).map((l) => (JSON.parse(l) as { content: string }).content)).toEqual([
      'tidy the repo',
      'done',
      'and the docs',
    ]);
  });

  it('aish sessions search finds a turn from three sessions ago (--json and text), and says when nothing matches', async () => {
    const home = tmpDir();
    fake.server.enqueue(
      { text: 'Decision: the billing database stays on PostgreSQL 16.' },
      { text: 'two' },
      { text: 'three' },
      { text: 'four' },
    );
    for (const q of ['which database for billing?', 'second topic', 'third topic', 'fourth topic']) {
      expect((await runAish(['-p', q], { home, env: env() })).code).toBe(0);
    }
    const sessions = JSON.parse((await runAish(['sessions', 'list', '--json'], { home })).stdout) as Array<{
      name: string;
      oneshot?: boolean;
    }>;
    expect(sessions).toHaveLength(4);
    expect(sessions.every((x) => x.oneshot)).toBe(true);
    // One-shot runs are left out of the list people read, and said so.
    expect((await runAish(['sessions', 'list'], { home })).stdout).toBe(
      `no sessions in ${sessionsDir(home)} (4 one-shot or unanswered hidden — --all shows them)\n`,
    );
    const oldest = sessions.at(-1)!.name;

    const r = await runAish(['sessions', 'search', 'PostgreSQL', 'databases', '--json'], { home });
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    const path = join(sessionsDir(home), `${oldest}.jsonl`);
    expect(hits.map(({ ts, ...rest }) => rest)).toEqual([
      { session: oldest, path, role: 'assistant', snippet: 'Decision: the billing database stays on PostgreSQL 16.', score: 2 },
      { session: oldest, path, role: 'user', snippet: 'which database for billing?', score: 1 },
    ]);
    for (const h of hits) expect(h.ts).toMatch(/^\d{4}-\d\d-\d\dT/);

    const text = await runAish(['sessions', 'search', 'postgresql'], { home });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${oldest} +\\d+s  assistant  Decision: the billing database stays on PostgreSQL 16\\.\\n$`));

    const none = await runAish(['sessions', 'search', 'kubernetes'], { home });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, 'no turn matches "kubernetes"\n', '']);
    const noneJson = await runAish(['sessions', 'search', 'kubernetes', '--json'], { home });
    expect([noneJson.code, noneJson.stdout]).toEqual([0, '[]\n']);
    const stop = await runAish(['sessions', 'search', 'the', 'of'], { home });
    expect(stop.code).toBe(2);
    expect(stop.stderr).toMatch(/^aish: nothing to search for in "the of" — [^\n]+\n$/);
  });
});

describe('errors leave the shell usable', () => {
  it('401, 429 after retries, 500, a hang, a cut stream: one clear line each, then a normal answer', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, `export default { models: { fast: { model: 'm', baseURL: '${fake.server.url}', timeoutMs: 400 } } };\n`);
    fake.server.enqueue(
      { status: 401 },
      { status: 429 },
      { status: 429 },
      { status: 429 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { hang: 'before-headers' },
      { hang: 'mid-stream', text: 'stalled part' },
      { cut: 'cut part' },
      { invalidChunk: '{nope' },
      { text: 'finally fine' },
    );
    const r = await runAish(['--config', cfg], { home, env: { OPENAI_API_KEY: 'sk-test' }, input: 'a\nb\nc\nd\ne\nf\ng\nh\n' });
    expect(r.code).toBe(1); // the shell went on, and a script still learns that calls failed
    const errs = r.stderr.trim().split('\n');
    expect(errs).toHaveLength(7);
    expect(errs[0]).toMatch(/^aish: .* refused the API key \(401\)/);
    expect(errs[1]).toMatch(/^aish: rate limited by .* \(429\) after retries/);
    expect(errs[2]).toMatch(/^aish: server error 500 from /);
    expect(errs[3]).toMatch(/^aish: no answer from .* within 400 ms/);
    expect(errs[4]).toMatch(/^aish: the answer from .* stalled for 400 ms; partial answer kept/);
    expect(errs[5]).toMatch(/^aish: the connection to .* dropped mid-answer; partial answer kept/);
    expect(errs[6]).toMatch(/^aish: unreadable data from /);
    expect(r.stdout).toContain('stalled part');
    expect(r.stdout).toContain('cut part');
    expect(r.stdout.trimEnd().endsWith('finally fine')).toBe(true);
    // the failed questions without any answer were taken back; partial answers stayed in context
    const last = fake.server.requests.at(-1)!.body.messages.slice(1);
    expect(last.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      'user:e',
      'assistant:stalled part\n\n[answer broken off]',
      'user:f',
      'assistant:cut part\n\n[answer broken off]',
      'user:h',
    ]);
  });
});
