/**
 * Type-ahead and Ctrl-R in a real pseudo-terminal (issue 14, acceptance 1 and 2): a prompt typed
 * during a slow answer is sent after it, in order, and each answer is on screen once; Ctrl-R finds
 * a prompt from an earlier run.
 */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { ptySessions, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());

/** A slow streamed answer: ~2 s, long enough to type ahead during it. */
const slow = (end: string) => ({ text: `${'alpha '.repeat(60)}${end}`, chunkSize: 6, intervalMs: 30 });

/** Rows of scrollback and screen that contain `what`. */
const count = (s: PtySession, what: string) => s.screen.logicalLines().filter((l) => l.includes(what)).length;

const sentPrompts = () => fake.server.requests.map(lastUserText);

describe('type-ahead in a pseudo-terminal', () => {
  it('a prompt typed during a slow answer is queued, sent after it ends, and each answer shows once', async () => {
    fake.server.enqueue(slow('FIRST-END'), { text: 'SECOND-ANSWER' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('first prompt\r');
    await s.waitFor('alpha alpha alpha');
    s.write('second prompt\r');
    await waitUntil(() => s.screen.screenLines().some((l) => l === 'queued: second prompt'), 'the queued row', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    expect(s.text()).not.toContain('busy');
    expect(fake.server.requests).toHaveLength(1); // nothing sent while the first answer streams

    const reqs = await fake.server.waitForRequests(2, 10_000);
    expect(sentPrompts()).toEqual(['first prompt', 'second prompt']);
    expect(reqs[1]!.receivedAt).toBeGreaterThanOrEqual(reqs[0]!.streamEndedAt!);
    // the first answer is the second request's history: it had ended
    expect(reqs[1]!.body.messages.at(-2)?.content).toContain('FIRST-END');

    await waitUntil(
      () => count(s, 'SECOND-ANSWER') === 1 && !s.screen.screenLines().some((l) => l.startsWith('queued:')),
      'the second answer',
      {
        detail: () => s.screen.allLines().join('\n'),
      },
    );
    await s.settle(300);
    const lines = s.screen.logicalLines();
    expect(count(s, 'FIRST-END')).toBe(1);
    expect(count(s, 'SECOND-ANSWER')).toBe(1);
    expect(count(s, '› second prompt')).toBe(1);
    expect(count(s, 'queued:')).toBe(0);
    // in order on screen: first answer, the second prompt's echo, its answer
    const at = (w: string) => lines.findIndex((l) => l.includes(w));
    expect(at('› first prompt')).toBeLessThan(at('FIRST-END'));
    expect(at('FIRST-END')).toBeLessThan(at('› second prompt'));
    expect(at('› second prompt')).toBeLessThan(at('SECOND-ANSWER'));
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Esc takes back the last queued prompt; Ctrl-C cancels the answer and the queue runs on', async () => {
    fake.server.enqueue(slow('NEVER-SHOWN'), { text: 'ANSWER-TWO' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('one\r');
    await s.waitFor('alpha alpha alpha');
    s.write('two\r');
    await waitUntil(() => s.screen.screenLines().includes('queued: two'), 'queued two');
    s.write('three\r');
    await waitUntil(() => s.screen.screenLines().includes('queued: three'), 'queued three');
    s.write('\x1b'); // a lone Esc
    await waitUntil(
      () => !s.screen.screenLines().includes('queued: three') && s.screen.screenLines().includes('queued: two'),
      'three taken back',
      {
        detail: () => s.screen.screenLines().join('\n'),
      },
    );
    s.write('\x03');
    await s.waitFor('[interrupted]');
    await fake.server.waitForRequests(2);
    await waitUntil(() => count(s, 'ANSWER-TWO') === 1, 'the queued prompt answered', { detail: () => s.screen.allLines().join('\n') });
    await s.settle(300);
    expect(sentPrompts()).toEqual(['one', 'two']);
    expect(count(s, 'NEVER-SHOWN')).toBe(0);
    expect(count(s, 'three')).toBe(0);
    expect(count(s, 'queued:')).toBe(0);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});

describe('Ctrl-R in a pseudo-terminal', () => {
  it('finds a prompt from a previous run, and Enter submits it', async () => {
    const home = tmpDir();
    const first = start(home);
    await first.waitFor('fast (gpt-4o-mini)');
    first.write('deploy the zebra-42 service\r');
    await first.waitFor('echo: deploy the zebra-42 service');
    first.write('list the files\r');
    await first.waitFor('echo: list the files');
    first.write('\x04');
    expect(await first.exitCode()).toBe(0);

    fake.server.reset();
    const s = start(home);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('draft');
    await s.waitFor('› draft');
    s.write('\x12');
    await s.waitFor("(reverse-i-search)'': draft");
    s.write('zeb');
    await s.waitFor("(reverse-i-search)'zeb': deploy the zebra-42 service");
    // Esc gives the draft back; a second search finds it again
    s.write('\x1b');
    await waitUntil(() => s.screen.screenLines().includes('› draft'), 'the draft restored', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    s.write('\x15'); // Ctrl-U
    await waitUntil(() => !s.screen.screenLines().includes('› draft'), 'the line emptied');
    s.write('\x12');
    await new Promise((r) => setTimeout(r, 50));
    s.write('zebra');
    await waitUntil(() => s.screen.screenLines().includes("(reverse-i-search)'zebra': deploy the zebra-42 service"), 'the match', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    s.write('\r');
    const [req] = await fake.server.waitForRequests(1);
    expect(lastUserText(req!)).toBe('deploy the zebra-42 service');
    await s.waitFor('echo: deploy the zebra-42 service');
    expect(count(s, '› deploy the zebra-42 service')).toBe(1);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
