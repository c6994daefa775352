/** :rewind in the REPL, in a real terminal: the prompt taken back comes back into the line editor. */
import { afterAll, describe, expect, it } from 'vitest';
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
});
