/** Resuming shows where the conversation stood; counts agree; -c / --resume from the shell say the right things. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: (req) => ({ text: `answer to ${lastUserText(req).split('\n').at(-1)}` }) });
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

describe('resume', () => {
  it('shows the last exchanges that fit the screen, the older ones counted, and the same turn count as :sessions', async () => {
    const home = tmpDir();
    const prompts = Array.from({ length: 14 }, (_, i) => `question number ${i + 1}`);
    expect((await runAish(['--data-dir', join(home, 'd')], { home, env: env(), input: prompts.join('\n') + '\n' })).code).toBe(0);
    const listed = (await runAish(['--data-dir', join(home, 'd'), 'sessions', 'list'], { home })).stdout;
    expect(listed).toMatch(/ 14 turns {2}question number 1$/m);

    const s = spawnAish(['--data-dir', join(home, 'd'), '-c'], { home, env: env(), cols: 100, rows: 16 });
    all.push(s);
    await s.waitFor(/resumed \S+: 14 turns/);
    const screen = s.text();
    expect(screen).toContain('question number 14');
    expect(screen).toContain('answer to question number 14');
    const shown = prompts.filter((p) => new RegExp(`› ${p}$`, 'm').test(screen)).length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(14);
    expect(screen).toContain(`… ${14 - shown} earlier turns`);
    s.write(':sessions\r');
    await s.waitFor(/\* \S+ +\S+ +14 turns/);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('aish -c with nothing to continue starts a new session and says so; --resume of a missing name points at aish sessions list', async () => {
    const home = tmpDir();
    const c = await runAish(['-c'], { home, env: env(), input: 'hello\n' });
    expect(c.code).toBe(0);
    expect(c.stdout).toContain('no earlier session to continue — starting a new one');
    expect(c.stdout).toContain('answer to hello');
    const r = await runAish(['--resume', 'nosuch'], { home, env: env(), input: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('aish: no session "nosuch" — see aish sessions list\n');
  });

  it("titles are the user's words, not aish's wrapper text; one-shot and failed-only sessions stay out of the list", async () => {
    const home = tmpDir();
    await runAish([], { home, env: env(), input: '!echo hi\nwhat did that print?\n' });
    await runAish(['-p', 'a one-shot question'], { home, env: env() });
    fake.server.setDefault({ status: 401, error: { message: 'bad key' } });
    const failed = await runAish([], { home, env: env(), input: 'this fails\n' });
    expect(failed.code).toBe(1);
    const list = (await runAish(['sessions', 'list'], { home })).stdout.trim().split('\n');
    expect(list).toHaveLength(2);
    expect(list[0]).toMatch(/ 1 turn {3}what did that print\?$/);
    expect(list[1]).toContain('2 one-shot or unanswered hidden — --all shows them');
    const every = (await runAish(['sessions', 'list', '--all'], { home })).stdout;
    expect(every).toContain('a one-shot question');
    expect(every).toContain('this fails');
    const listed = JSON.parse((await runAish(['sessions', 'list', '--json'], { home })).stdout) as Array<{
      firstPrompt: string;
      path: string;
    }>;
    const log = readFileSync(listed.find((x) => x.firstPrompt === 'what did that print?')!.path, 'utf8');
    expect(log).toContain('"typed":"what did that print?"');
  });
});
