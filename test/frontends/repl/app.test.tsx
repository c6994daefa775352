/** The App component with ink-testing-library: real engine, real fake server, no terminal. */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../../helpers/fake-server-suite';
import { mountApp } from '../../helpers/ink-app';

const fake = useFakeOpenAI();

const mount = () => mountApp(fake);

describe('App (ink-testing-library)', () => {
  it('submits a prompt, shows the answer, and keeps the status line', async () => {
    fake.server.enqueue({ text: 'Hello from the model.' });
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write('hi there');
    await t.until((f) => f.includes('› hi there'), 'typed text');
    t.ui.stdin.write('\r');
    await t.until((f) => f.includes('Hello from the model.'), 'answer');
    expect(t.frame()).toMatch(/fast \(gpt-4o-mini\) │ .* │ mem 0 │ ctx ~?\d+\/8\.0k/);
    t.ui.unmount();
  });

  it('asks inline [y/N] questions and takes the answer from the same editor', async () => {
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    const answer = t.parts.host.ask('delete everything? [y/N] ');
    await t.until((f) => f.includes('delete everything? [y/N]'), 'question');
    t.ui.stdin.write('y');
    await t.until((f) => f.includes('[y/N] y'), 'typed answer');
    t.ui.stdin.write('\r');
    expect(await answer).toBe('y');
    t.ui.unmount();
  });

  it('a pre-filled answer (summarize edit) can be changed before Enter', async () => {
    const t = await mount();
    await t.until((f) => f.includes('›'), 'prompt');
    const answer = t.parts.host.ask('edit: ', { initial: 'User uses pnpm.' });
    await t.until((f) => f.includes('edit: User uses pnpm.'), 'pre-filled text');
    t.ui.stdin.write('\x17'); // Ctrl-W: delete "pnpm."
    await t.until((f) => f.includes('edit: User uses') && !f.includes('pnpm'), 'word deleted');
    t.ui.stdin.write('yarn.');
    await t.until((f) => f.includes('edit: User uses yarn.'), 'new word');
    t.ui.stdin.write('\r');
    expect(await answer).toBe('User uses yarn.');
    t.ui.unmount();
  });

  it('Ctrl-D deletes under the cursor while the line has text, and exits once it is empty, sending nothing', async () => {
    const t = await mount();
    await t.until((f) => f.includes('›'), 'prompt');
    t.ui.stdin.write('abc');
    await t.until((f) => f.includes('› abc'), 'typed text');
    t.ui.stdin.write('\x01'); // Ctrl-A: to the start of the line
    t.ui.stdin.write('\x04');
    await t.until((f) => f.includes('› bc'), 'the character under the cursor deleted');
    expect(t.exited()).toBe(false);
    t.ui.stdin.write('\x0b'); // Ctrl-K: the line is empty again
    await t.until((f) => f.includes('›') && !f.includes('bc'), 'an empty line');
    t.ui.stdin.write('\x04');
    await t.until(() => t.exited(), 'exit');
    expect(fake.server.requests).toEqual([]);
    t.ui.unmount();
  });

  it('Tab shows the candidates when several commands match', async () => {
    const t = await mount();
    await t.until((f) => f.includes('›'), 'prompt');
    t.ui.stdin.write(':s');
    await t.until((f) => f.includes('› :s'), 'typed');
    t.ui.stdin.write('\t');
    await t.until((f) => f.includes(':save  :session  :sessions'), 'candidates');
    expect(t.frame()).toContain(':save  :session  :sessions');
    t.ui.unmount();
  });

  it('Ctrl-R finds an earlier prompt; Esc restores the draft; Enter submits the match; → edits it', async () => {
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    for (const p of ['deploy the blue service', 'list files']) {
      t.ui.stdin.write(`${p}\r`);
      await t.until((f) => f.includes(`echo: ${p}`) && !t.engine.busy, `answer to ${p}`);
    }
    t.ui.stdin.write('draft');
    await t.until((f) => f.includes('› draft'), 'draft');
    t.ui.stdin.write('\x12');
    await t.until((f) => f.includes("(reverse-i-search)'': draft"), 'search prompt');
    t.ui.stdin.write('blue');
    await t.until((f) => f.includes("(reverse-i-search)'blue': deploy the blue service"), 'the match');
    t.ui.stdin.write('\x1b');
    await t.until((f) => f.includes('› draft') && !f.includes('reverse-i-search'), 'draft restored');
    t.ui.stdin.write('\x15'); // Ctrl-U: empty the line
    await t.until((f) => !f.includes('› draft'), 'line emptied');
    t.ui.stdin.write('\x12');
    await t.until((f) => f.includes("(reverse-i-search)''"), 'search prompt again');
    t.ui.stdin.write('deploy');
    await t.until((f) => f.includes("'deploy': deploy the blue service"), 'the match again');
    t.ui.stdin.write('\r');
    await t.until(() => fake.server.requests.length === 3, 'the third request');
    expect(fake.server.requests[2]!.body.messages.at(-1)?.content).toBe('deploy the blue service');
    await t.until(() => !t.engine.busy, 'the answer done');
    // → takes the match into the line at the query, one step on; typing edits it there
    t.ui.stdin.write('\x12');
    await t.until((f) => f.includes("(reverse-i-search)''"), 'search prompt');
    t.ui.stdin.write('files');
    await t.until((f) => f.includes("'files': list files"), 'the match');
    t.ui.stdin.write('\x1b[C');
    await t.until((f) => f.includes('› list files') && !f.includes('reverse-i-search'), 'the match in the line');
    t.ui.stdin.write('X\r');
    await t.until(() => fake.server.requests.length === 4, 'the fourth request');
    expect(fake.server.requests[3]!.body.messages.at(-1)?.content).toBe('list fXiles');
    t.ui.unmount();
  });

  it('a question asked during a turn takes the typed line as its answer, not as a queued prompt', async () => {
    fake.server.enqueue({ text: 'word '.repeat(80) + 'DONE', chunkSize: 5, intervalMs: 10 });
    const t = await mount();
    await t.until((f) => f.includes('fast (gpt-4o-mini)'), 'status line');
    t.ui.stdin.write('talk\r');
    await t.until((f) => f.includes('word word'), 'the answer streaming');
    t.ui.stdin.write('later\r');
    await t.until((f) => f.includes('queued: later'), 'the queued line');
    // as a tool call's confirmation would, while the turn runs
    const answer = t.parts.host.ask('run? [y/N] ');
    await t.until((f) => f.includes('run? [y/N]'), 'the question');
    t.ui.stdin.write('y');
    await t.until((f) => f.includes('[y/N] y'), 'typed answer');
    t.ui.stdin.write('\r');
    expect(await answer).toBe('y');
    expect(t.frame()).toContain('queued: later');
    await t.until((f) => f.includes('echo: later'), 'the queued prompt answered after the turn');
    expect(fake.server.requests.map((r) => r.body.messages.at(-1)?.content)).toEqual(['talk', 'later']);
    t.ui.unmount();
  });
});
