/** `:session` in a terminal: the working state is rendered as answers are, not shown as raw Markdown. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDigest } from '../../src/sessions/digest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok' } });
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' });
const pty = ptySessions(env, { cols: 80, rows: 30 });

describe(':session', () => {
  it('renders the working state: headings styled, no literal ** on screen', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    expect((await runAish(data, { home, env: env(), input: 'start the migration\n' })).code).toBe(0);
    const dir = join(home, 'd', 'sessions');
    const log = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.jsonl'))!,
    );
    appendDigest(log, {
      ts: new Date().toISOString(),
      title: 'Billing migration',
      state: {
        goal: 'move billing to Postgres',
        current: 'schema done',
        decisions: ['keep the replica'],
        openQuestions: [],
        nextSteps: ['backfill'],
        filesTouched: [],
      },
    });
    const s = pty(home, [...data, '-c']);
    await s.waitFor(/resumed \S+/);
    s.write(':session\r');
    await s.waitFor('Next steps');
    await s.settle();
    const screen = s.text();
    expect(screen).toMatch(/^Goal: move billing to Postgres$/m);
    expect(screen).toMatch(/^Current state: schema done$/m);
    expect(screen).toMatch(/^Decisions:$/m);
    expect(screen).toMatch(/^ *[-•] keep the replica$/m);
    expect(screen).not.toContain('**');
    // Bold, as Markdown in an answer is.
    expect(s.raw()).toMatch(/\x1b\[1mGoal:/);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
