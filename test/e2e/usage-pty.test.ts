/** Tokens and cost on a real terminal (issue 14, acceptance 4): the status line and :usage. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

describe('tokens and cost in a pseudo-terminal', () => {
  it('the status line shows the usage chunk and the priced cost; :usage sums two presets', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(
      cfg,
      "export default { models: { fast: { model: 'gpt-4o-mini', price: { input: 2.5, output: 10 } }, other: { model: 'gpt-4o' } } };\n",
    );
    const s = spawnAish(['--config', cfg], { home, env: fake.env(), cols: 120 });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');

    fake.server.enqueue({ text: 'first answer', usage: { prompt_tokens: 1200, completion_tokens: 340 } });
    s.write('hello\r');
    await s.waitFor('first answer');
    // (1200 × 2.5 + 340 × 10) / 1e6 = $0.0064
    await s.waitFor('│ ↑1.2k ↓340 · Σ 1.5k · $0.0064');

    s.write(':model other\r');
    await s.waitFor('model: other');
    fake.server.enqueue({ text: 'second answer', usage: { prompt_tokens: 2000, completion_tokens: 100 } });
    s.write('again\r');
    await s.waitFor('second answer');
    await s.waitFor('│ ↑2.0k ↓100 · Σ 3.6k · $0.0064');

    let mark = s.text().length;
    s.write(':usage\r');
    await s.waitFor('cost from models.NAME.price', { from: mark });
    const table = s
      .text()
      .slice(mark)
      .split(/\r?\n/)
      .map((l) => l.trim().split(/\s+/).join(' '));
    expect(table).toEqual(expect.arrayContaining(['fast 1 1,200 340 $0.0064', 'other 1 2,000 100 —', 'total 2 3,200 440 $0.0064']));

    // A server that sends no usage: the token counter's estimate, marked ~.
    mark = s.text().length;
    fake.server.enqueue({ text: 'third answer', usage: false });
    s.write('once more\r');
    await s.waitFor('third answer', { from: mark });
    await s.waitFor(/│ ~↑[\d.]+k? ↓\d+ · Σ ~[\d.]+k · ~\$0\.0064/, { from: mark });
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
