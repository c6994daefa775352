/**
 * A bare `exit` or `quit` (any case, any spacing) and `!exit` leave aish as `:quit` does — in the
 * real REPL in a pseudo-terminal and in piped (plain) mode — with the same quit-time hand-off; `exit 1`
 * and the like still go to the model, and `!exit 3` still runs in the shell.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/memory/review/inbox';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

const QUIT_LINE = 'inbox: 1 memory candidate waits for review — aish memory review (or :memory review)';

/** A REPL with one candidate in the inbox and capture on: quitting hands the session to capture and says what waits. */
async function start(): Promise<{ s: PtySession; home: string }> {
  const home = tmpDir();
  await Inbox.open(join(home, 'data', 'memory.jsonl')).add([{ kind: 'pref', content: 'answers in French', source: { session: 's1' } }]);
  const s = spawnAish(['--data-dir', join(home, 'data')], {
    home,
    env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k', AISH_CAPTURE: undefined },
    cols: 200,
  });
  all.push(s);
  await s.waitFor('inbox 1');
  return { s, home };
}

const sentToModel = (line: string) => fake.server.requests.some((r) => lastUserText(r) === line);

describe('exit and quit in the REPL (PTY)', () => {
  for (const word of [':quit', 'exit', '  EXIT  ', 'Quit ', '!exit'])
    it(`${JSON.stringify(word)} quits with the same hand-off as :quit`, async () => {
      const { s } = await start();
      const marker = `hello before ${word.trim()}`;
      s.write(`${marker}\r`);
      await s.waitFor('ok.');
      s.write(`${word}\r`);
      await s.waitFor(QUIT_LINE);
      expect(await s.exitCode()).toBe(0);
      // Bracketed paste off and the cursor shown: the same clean-up as :quit.
      const tail = s.raw().slice(-400);
      expect(tail).toContain('\x1b[?2004l');
      expect(tail).toContain('\x1b[?25h');
      expect(sentToModel(marker)).toBe(true);
      expect(sentToModel(word) || sentToModel(word.trim())).toBe(false);
    });

  it('`exit 1` and `exit now please` go to the model; `!exit 3` runs in the shell; the REPL stays', async () => {
    const { s } = await start();
    s.write('exit 1\r');
    await s.waitFor('ok.');
    s.write('exit now please\r');
    await fake.server.waitForRequests(2);
    s.write('!exit 3\r');
    await s.waitFor('[exit 3]');
    expect(sentToModel('exit 1')).toBe(true);
    expect(sentToModel('exit now please')).toBe(true);
    s.write('quit\r');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('exit and quit in piped (plain) mode', () => {
  it('a bare quit ends the run there, as :quit does; exit 1 before it was a prompt', async () => {
    const home = tmpDir();
    const r = await runAish(['--data-dir', join(home, 'data')], {
      home,
      env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' },
      input: 'exit 1\n  QUIT  \nnever sent\n',
    });
    expect(r.code).toBe(0);
    expect(sentToModel('exit 1')).toBe(true);
    expect(sentToModel('never sent')).toBe(false);
    expect(sentToModel('QUIT')).toBe(false);
  });

  it('!exit ends it too; !exit 3 runs in the shell and the run goes on', async () => {
    const home = tmpDir();
    const r = await runAish(['--data-dir', join(home, 'data')], {
      home,
      env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' },
      input: '!exit 3\n!echo still here\n!exit\n!echo not reached\nnot sent either\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('still here');
    expect(r.stdout).not.toContain('not reached');
    expect(sentToModel('not sent either')).toBe(false);
  });
});
