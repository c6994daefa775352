/** :rewind in the REPL, in a real terminal: the prompt taken back comes back into the line editor. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

describe(':rewind in the REPL', () => {
  it('puts the prompt taken back into the editor, to change and send again', async () => {
    const s = spawnAish([], { home: tmpDir(), env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' } });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');
    fake.server.enqueue({ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' });
    s.write('first question\r');
    await s.waitFor('first answer');
    s.write('second question\r');
    await s.waitFor('second answer');
    const mark = s.text().length;
    s.write(':rewind\r');
    await s.waitFor('your prompt is back in the editor', { from: mark });
    await s.waitFor(/› second question\s*$/m, { from: mark });
    s.write(' again\r');
    await s.waitFor('third answer', { from: mark });
    const reqs = await fake.server.waitForRequests(3);
    expect(reqs[2]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'second question again' },
    ]);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('names the files changed since a checkpoint in those turns and puts them back on y', async () => {
    const home = tmpDir();
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'a.txt'), 'before\n');
    const s = spawnAish([], { home, cwd: work, env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' } });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');
    fake.server.enqueue({ text: 'edited it' });
    s.write('change a.txt\r');
    await s.waitFor('edited it');
    // the turn's step: a checkpoint, then the file changed (as a tool call would)
    await new Checkpoints(checkpointsRoot(join(home, '.local', 'share', 'aish')), work).snapshot('sed -i s/before/after/ a.txt', 'turn 1');
    writeFileSync(join(work, 'a.txt'), 'after\n');
    const mark = s.text().length;
    s.write(':rewind\r');
    await s.waitFor(/changed since: a\.txt\s+files changed since: 1 — restore\? \[y\/N\]/, { from: mark });
    expect(s.text().slice(mark)).toMatch(/took back 1 exchange[\s\S]*your prompt is back in the editor[\s\S]*files changed since/);
    s.write('y\r');
    await s.waitFor(/1\s+file\s+written\s+back/, { from: mark });
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('before\n');
    await s.waitFor(/› change a\.txt\s*$/m, { from: mark });
    s.write('\x15\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
