/** Markers and answers on a real terminal (issue 13, defects 7 and 8): one [interrupted], echoed answers and :norris stop. */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());

describe('messages in a pseudo-terminal', () => {
  it('Ctrl-C during an answer prints one interrupted marker, not two', async () => {
    fake.server.enqueue({ text: 'word '.repeat(400), chunkSize: 5, intervalMs: 15 }, { text: 'second answer' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    const mark = s.text().length;
    s.write('talk a lot\r');
    await s.waitFor('word word word', { from: mark });
    s.write('\x03');
    await s.waitFor('[interrupted]', { from: mark });
    s.write('next question\r');
    await s.waitFor('second answer', { from: mark });
    expect(
      s
        .text()
        .slice(mark)
        .match(/interrupted/g),
    ).toEqual(['interrupted']);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it(':memory summarize echoes each answer and the edited text, and ends with what happened to each', async () => {
    fake.server.enqueue(
      { text: 'noted' },
      { text: '- fact: User builds with pnpm.\n- fact: Deploys are on Fridays.\n- context: Project is a CLI.' },
    );
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('I build with pnpm and deploy on Fridays\r');
    await s.waitFor('noted');
    const mark = s.text().length;
    s.write(':memory summarize\r');
    await s.waitFor('candidate 1/3', { from: mark });
    s.write('y\r');
    await s.waitFor('candidate 2/3', { from: mark });
    s.write('edit\r');
    await s.waitFor('edit: Deploys are on Fridays.', { from: mark });
    s.write('\x15Deploys happen on Friday afternoons.\r'); // Ctrl-U, then the new text
    await s.waitFor('candidate 3/3', { from: mark });
    s.write('\r');
    await s.waitFor('[aish] memory:', { from: mark });
    const screen = s.text().slice(mark);
    expect(screen).toContain('keep? [y/N/edit] y');
    expect(screen).toContain('keep? [y/N/edit] edit');
    expect(screen).toContain('edit: Deploys happen on Friday afternoons.');
    expect(screen).toContain('kept as #2: Deploys happen on Friday afternoons.');
    expect(screen).toContain('[aish] memory: added 2 candidates (#1, #2), skipped 1');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it(':norris stop while a goal runs is echoed and stops it', async () => {
    fake.server.setDefault({ text: 'thinking '.repeat(300), chunkSize: 5, intervalMs: 15 });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    const mark = s.text().length;
    s.write(':norris count the files\r');
    await s.waitFor('thinking thinking', { from: mark });
    s.write(':norris stop\r');
    await s.waitFor('NORRIS ended', { from: mark });
    expect(s.text().slice(mark)).toContain('› :norris stop');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
