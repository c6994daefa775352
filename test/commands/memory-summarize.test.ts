import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { tallyLine } from '../../src/commands/memory-summarize';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

const OPENAI_KEY = 'sk-proj-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm';
const AWS_KEY = 'AKIAZ7Q2W4E6R8T0Y3U5';

describe(':memory summarize', () => {
  it("logs the summarizer's answer with its secrets redacted", async () => {
    const home = tmpDir();
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, 'data'),
      OPENAI_BASE_URL: fake.server.url,
      OPENAI_API_KEY: 'k',
    };
    const s = await setup({}, env);
    const printed: OutputItem[] = [];
    // Nobody answers keep? [y/N/edit]: no candidate is kept, only the logged answer is at stake.
    const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
    const input = Engine.compose(s, host, { env }, routerFor)[1];
    fake.server.enqueue(
      { text: 'Noted, the deploy uses the staging credentials.' },
      { text: `- fact: The deploy uses OpenAI key ${OPENAI_KEY}.\n- fact: AWS access key id is ${AWS_KEY} for deploys.` },
    );
    await input.submit('remember how the deploy is set up');
    await input.submit(':memory summarize');
    expect(printed.filter((p) => p.kind === 'error')).toEqual([]);
    // Nobody answered: the status line still ends the seed, counting what was added.
    expect(printed.at(-1)!.text).toBe('[aish] memory: added 0 candidates, 2 not asked (no answer)');
    expect(fake.server.requests).toHaveLength(2);

    const [file] = readdirSync(s.paths.sessionsDir);
    const log = readFileSync(join(s.paths.sessionsDir, file!), 'utf8');
    const logged = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { content?: string; meta?: string })
      .filter((t) => t.meta === 'summarize');
    expect(logged).toEqual([
      expect.objectContaining({
        role: 'assistant',
        content: '- fact: The deploy uses OpenAI key [redacted].\n- fact: AWS access key id is [redacted] for deploys.',
      }),
    ]);
    expect(log).not.toContain(OPENAI_KEY.slice(8));
    expect(log).not.toContain(AWS_KEY.slice(4));
  });
});

describe('the summarize tally', () => {
  it('records what happened to every candidate', () => {
    expect(tallyLine({ kept: [5, 6], skipped: 1, known: [], unasked: 0 })).toBe('added 2 candidates (#5, #6), skipped 1');
    expect(tallyLine({ kept: [7], skipped: 0, known: [], unasked: 0 })).toBe('added 1 candidate (#7)');
    expect(tallyLine({ kept: [], skipped: 0, known: [3], unasked: 2 })).toBe(
      'added 0 candidates, 1 already remembered (#3), 2 not asked (no answer)',
    );
  });
});
