/** The status line's context count never shows more than the budget, and an answer too long to keep is said to leave. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const LONG = Array.from({ length: 600 }, (_, i) => `word${i} of a long answer`).join(' ');
const fake = useFakeOpenAI({ defaultReply: { text: LONG } });
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' });
const pty = ptySessions(env, { cols: 100, rows: 30 });

const kilo = (s: string) => (s.endsWith('k') ? parseFloat(s) * 1000 : parseFloat(s));

describe('context budget on the status line', () => {
  it('context.maxTokens 1500 and one long answer: ctx stays within 1.5k and the eviction is said', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { context: { maxTokens: 1500 } };\n');
    const s = pty(home, ['--config', cfg, '--data-dir', join(home, 'd')]);
    await s.waitFor(/ctx ~?[\d.]+k?\/1\.5k/);
    s.write('tell me everything\r');
    await s.waitFor('word599 of a long answer');
    await s.waitFor('context full:');
    await s.settle();
    const counts = [...s.text().matchAll(/ctx ~?([\d.]+k?)\/1\.5k/g)].map((m) => kilo(m[1]!));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.at(-1)).toBeLessThanOrEqual(1500);
    // The next prompt is sent within the budget too.
    s.write('and now?\r');
    await s.waitFor(/› and now\?/);
    const [, second] = await fake.server.waitForRequests(2);
    expect(JSON.stringify(second!.body)).not.toContain('word599');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
