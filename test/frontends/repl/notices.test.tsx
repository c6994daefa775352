/** Notices and markers that must not linger or double (issue 13, defect 8): App with ink-testing-library. */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../helpers/fake-server-suite';
import { mountApp } from '../../helpers/ink-app';

const fake = useFakeOpenAI();

const mount = (config?: string) => mountApp(fake, { ...(config !== undefined && { config }), patience: 300 });

const SLOW = { text: 'word '.repeat(60) + 'THE END', chunkSize: 5, intervalMs: 10 };

describe('notices that end with the work they are about', () => {
  it('a line typed during an answer is queued, shown as `queued:`, and runs when the answer ends', async () => {
    fake.server.enqueue(SLOW, { text: 'SECOND ANSWER' });
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write('first\r');
    await t.until((f) => f.includes('word word'), 'the answer streaming');
    t.ui.stdin.write('second\r');
    await t.until((f) => f.includes('queued: second'), 'the queued line');
    expect(t.frame()).not.toContain('busy');
    expect(fake.server.requests).toHaveLength(1);
    // the answers reach the scrollback once the Markdown renderer has loaded
    await t.until((f) => f.includes('› second') && f.includes('SECOND ANSWER') && !t.engine.busy, 'the second answer');
    expect(t.frame()).not.toContain('queued:');
    const all = t.frame();
    expect(all.indexOf('THE END')).toBeGreaterThan(0);
    expect(all.indexOf('THE END')).toBeLessThan(all.indexOf('› second'));
    expect(all.indexOf('› second')).toBeLessThan(all.indexOf('SECOND ANSWER'));
    expect(all.match(/SECOND ANSWER/g)).toHaveLength(1);
    t.ui.unmount();
  });

  it('Esc takes back the last queued line; Ctrl-C cancels the answer and the queue runs on', async () => {
    fake.server.enqueue(SLOW, { text: 'ANSWER TWO' });
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write('one\r');
    await t.until((f) => f.includes('word word'), 'the answer streaming');
    t.ui.stdin.write('two\r');
    await t.until((f) => f.includes('queued: two'), 'queued two');
    t.ui.stdin.write('three\r');
    await t.until((f) => f.includes('queued: three'), 'queued three');
    t.ui.stdin.write('\x1b');
    await t.until((f) => !f.includes('queued: three') && f.includes('queued: two'), 'three taken back');
    t.ui.stdin.write('\x03');
    await t.until(
      (f) => f.includes('[interrupted]') && f.includes('› two') && f.includes('ANSWER TWO') && !t.engine.busy,
      'the queued prompt answered',
    );
    expect(t.frame()).not.toContain('three');
    const sent = fake.server.requests.map((r) => r.body.messages.at(-1)?.content);
    expect(sent).toEqual(['one', 'two']);
    t.ui.unmount();
  });

  it(':norris stop is echoed, and "stopping Norris…" goes when Norris has ended', async () => {
    fake.server.setDefault({ text: 'thinking '.repeat(200), chunkSize: 5, intervalMs: 10 });
    // No sandbox probe: a unit test starts no process.
    const t = await mount("export default { safety: { sandbox: 'off' } };\n");
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write(':norris count the files\r');
    await t.until((f) => f.includes('thinking thinking'), 'a Norris step streaming');
    t.ui.stdin.write(':norris stop\r');
    await t.until(() => t.all().includes('stopping Norris…'), 'the stopping notice');
    await t.until((f) => f.includes('NORRIS ended'), 'the end report');
    await t.until((f) => !f.includes('stopping Norris…'), 'the stopping notice gone');
    expect(t.all()).toContain('› :norris stop');
    t.ui.unmount();
  });

  it('Ctrl-C during an answer prints one interrupted marker', async () => {
    fake.server.enqueue(SLOW, { text: 'second answer' });
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write('talk\r');
    await t.until((f) => f.includes('word word'), 'the answer streaming');
    t.ui.stdin.write('\x03');
    await t.until((f) => f.includes('[interrupted]') && !t.engine.busy, 'the marker');
    t.ui.stdin.write('next\r');
    await t.until((f) => f.includes('second answer'), 'the next answer');
    expect(t.frame().match(/interrupted/g)).toEqual(['interrupted']);
    t.ui.unmount();
  });
});

describe('answers stay on screen', () => {
  it('a question and its answer (an edit too) are echoed into the scrollback', async () => {
    const t = await mount();
    await t.until((f) => f.includes('›'), 'prompt');
    const keep = t.parts.host.ask('keep? [y/N/edit] ');
    await t.until((f) => f.includes('keep? [y/N/edit]'), 'question');
    t.ui.stdin.write('edit\r');
    expect(await keep).toBe('edit');
    const edit = t.parts.host.ask('edit: ', { initial: 'User uses pnpm.' });
    await t.until((f) => f.includes('edit: User uses pnpm.'), 'pre-filled text');
    t.ui.stdin.write('\x17yarn.\r');
    expect(await edit).toBe('User uses yarn.');
    await t.until((f) => f.includes('keep? [y/N/edit] edit\nedit: User uses yarn.'), 'both answers echoed');
    t.ui.unmount();
  });
});
