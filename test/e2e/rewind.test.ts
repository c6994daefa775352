/** :rewind and :fork through the built CLI in piped mode, against the local OpenAI-compatible server. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const sessionsDir = (home: string) => join(home, '.local', 'share', 'aish', 'sessions');
const jsonAfter = (out: string, marker: string) => {
  const from = out.indexOf('[', out.indexOf(marker));
  return JSON.parse(out.slice(from, out.indexOf('\n]', from) + 2)) as Array<{ role: string; content: string }>;
};
const logLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe(':rewind', () => {
  it('takes back two exchanges: gone from :history and the next request, kept in the log with a rewind line', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' }, { text: 'A2' }, { text: 'A3' }, { text: 'A4' });
    const r = await runAish([], { home, env: env(), input: 'Q1\nQ2\nQ3\n:rewind 2\n:history --json\nQ4\n:save kept\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('took back 2 exchanges (the session log keeps them)');
    expect(r.stdout).toContain('your prompt was: Q2');
    const history = jsonAfter(r.stdout, 'your prompt was');
    expect(history.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
    ]);
    const reqs = await fake.server.waitForRequests(4);
    expect(reqs[3]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q4' },
    ]);
    const auto = readdirSync(sessionsDir(home)).find((f) => f !== 'kept.jsonl')!;
    const lines = logLines(join(sessionsDir(home), auto));
    expect(lines.map((l) => l.content ?? Object.keys(l.meta as object)[0])).toEqual([
      'id',
      'Q1',
      'A1',
      'Q2',
      'A2',
      'Q3',
      'A3',
      'rewind',
      'Q4',
      'A4',
    ]);
    expect(lines[7]).toEqual({ meta: { rewind: { ts: expect.any(String), exchanges: 2 } } });

    // resumed, it goes on from the rewound point
    fake.server.enqueue({ text: 'A5' });
    const c = await runAish(['--resume', 'kept'], { home, env: env(), input: 'Q5\n' });
    expect(c.stdout).toContain('resumed kept: 2 turns');
    expect((await fake.server.waitForRequests(5))[4]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q4' },
      { role: 'assistant', content: 'A4' },
      { role: 'user', content: 'Q5' },
    ]);
  });

  it('aish -c continues a session from its rewound point', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' }, { text: 'A2' });
    await runAish([], { home, env: env(), input: 'Q1\nQ2\n:rewind\n' });
    fake.server.enqueue({ text: 'A3' });
    const c = await runAish(['-c'], { home, env: env(), input: 'Q3\n' });
    expect(c.code).toBe(0);
    expect((await fake.server.waitForRequests(3))[2]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q3' },
    ]);
  });

  it('with nothing to take back, or a bad count, says so', async () => {
    const r = await runAish([], { home: tmpDir(), env: env(), input: ':rewind\n:rewind x\n' });
    expect(r.stdout).toContain('nothing to rewind — no exchange in this conversation yet');
    expect(r.stdout + r.stderr).toContain('usage: :rewind [N]');
  });
});

describe(':rewind with checkpoints', () => {
  it('offers to put the files back when a checkpoint was taken in the turns taken back, and only then', async () => {
    const home = tmpDir();
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'a.txt'), 'before\n');
    const cps = new Checkpoints(checkpointsRoot(join(home, '.local', 'share', 'aish')), work);
    await cps.snapshot('echo mid > a.txt', 'turn 0'); // older than every exchange: never offered
    writeFileSync(join(work, 'a.txt'), 'mid\n');
    fake.server.enqueue({ text: 'A1' }, { text: 'A2' });
    await runAish([], { home, cwd: work, env: env(), input: 'Q1\nQ2\n:save s\n' });
    // Q2's turn changed the file after a checkpoint (as a tool step would)
    await cps.snapshot('echo after > a.txt', 'turn 2');
    writeFileSync(join(work, 'a.txt'), 'after\n');

    const no = await runAish(['--resume', 's'], { home, cwd: work, env: env(), input: ':rewind\nn\n' });
    expect(no.stdout).toMatch(
      /took back 1 exchange .*\nyour prompt was: Q2\ncheckpoint [0-9a-f]{8}, .* before turn 2 \("echo after > a\.txt"\) has ~\/work as it was before those turns; changed since: a\.txt\nfiles changed since: 1 — restore\? \[y\/N\]/,
    );
    expect(no.stdout).toContain('files kept as they are');
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('after\n');

    const yes = await runAish(['--resume', 's'], { home, cwd: work, env: env(), input: ':rewind\ny\n' });
    expect(yes.stdout).toMatch(/restored .*1 file written back/);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('mid\n');

    // taking back Q1 too: turn 0's checkpoint is older than Q1, so the one compared is still turn 2's
    // (the other one in those turns is the state the restore above replaced); the count is of files
    writeFileSync(join(work, 'a.txt'), 'later\n');
    writeFileSync(join(work, 'b.txt'), 'new\n');
    const both = await runAish(['--resume', 's'], { home, cwd: work, env: env(), input: ':rewind 2\nn\n' });
    expect(both.stdout).toMatch(
      /checkpoint [0-9a-f]{8}, .* before turn 2 .*; changed since: a\.txt, b\.txt\nfiles changed since: 2 — restore\? \[y\/N\]/,
    );
  });

  it('asks nothing when the files are as they were before those turns', async () => {
    const home = tmpDir();
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'a.txt'), 'same\n');
    fake.server.enqueue({ text: 'A1' });
    await runAish([], { home, cwd: work, env: env(), input: 'Q1\n:save s\n' });
    const cps = new Checkpoints(checkpointsRoot(join(home, '.local', 'share', 'aish')), work);
    await cps.snapshot('touch a.txt', 'turn 1');
    const r = await runAish(['--resume', 's'], { home, cwd: work, env: env(), input: ':rewind\n' });
    expect(r.stdout).toMatch(/files unchanged since those turns began \(checkpoint [0-9a-f]{8}, .* before turn 1/);
    expect(r.stdout).not.toContain('restore?');
    expect(fake.server.requests).toHaveLength(1);
  });

  it('asks nothing when no checkpoint was taken in those turns', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' });
    const r = await runAish([], { home, env: env(), input: 'Q1\n:rewind\n' });
    expect(r.stdout).not.toContain('restore');
    expect(r.stdout).not.toContain('files may have changed');
  });
});

describe(':fork', () => {
  it('never replaces another conversation saved under that name unless --force', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' }, { text: 'B1' });
    await runAish([], { home, env: env(), input: 'monday plan\n:save work\n' });
    const before = readFileSync(join(sessionsDir(home), 'work.jsonl'), 'utf8');
    const r = await runAish([], { home, env: env(), input: 'tuesday idea\n:fork work\n:save work\n' });
    expect(r.stderr).toContain('"work" holds another conversation (1 prompt, last ');
    expect(r.stderr).toContain('pick another name, or :fork --force work to replace it');
    expect(r.stderr).toContain('or :save --force work to replace it');
    expect(readFileSync(join(sessionsDir(home), 'work.jsonl'), 'utf8')).toBe(before);
    fake.server.enqueue({ text: 'C1' });
    const f = await runAish(['-c'], { home, env: env(), input: ':fork --force work\n' });
    expect(f.stdout).toContain('saved as work (aish --resume work)');
    expect(readFileSync(join(sessionsDir(home), 'work.jsonl'), 'utf8')).toContain('tuesday idea');
  });

  it('saves the conversation so far and goes on in a new session; both resume with their own turns', async () => {
    const home = tmpDir();
    fake.server.enqueue({ text: 'A1' }, { text: 'A2' });
    const r = await runAish([], { home, env: env(), input: 'Q1\n:fork branch\nQ2\n:save main2\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/saved as branch \(aish --resume branch\); this conversation goes on as session \d{8}-\d{6}-\d+/);

    fake.server.enqueue({ text: 'B' });
    await runAish(['--resume', 'branch'], { home, env: env(), input: 'from the fork\n' });
    expect((await fake.server.waitForRequests(3))[2]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'from the fork' },
    ]);

    fake.server.enqueue({ text: 'C' });
    await runAish(['--resume', 'main2'], { home, env: env(), input: 'from the new session\n' });
    expect((await fake.server.waitForRequests(4))[3]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Q1' },
      { role: 'assistant', content: 'A1' },
      { role: 'user', content: 'Q2' },
      { role: 'assistant', content: 'A2' },
      { role: 'user', content: 'from the new session' },
    ]);
  });
});
