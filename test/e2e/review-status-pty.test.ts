/** `inbox N` on the status line follows `:memory review` down to nothing, drops included. */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/memory/review/inbox';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

/** The status line: the screen's last row with something on it. */
const status = (s: PtySession) =>
  s.screen
    .screenLines()
    .filter((l) => l.trim())
    .at(-1) ?? '';

describe(':memory review and the status line', () => {
  it('dropping the only candidate takes inbox 1 off the status line', async () => {
    const home = tmpDir();
    const mem = join(home, 'data', 'memory.jsonl');
    await Inbox.open(mem).add([{ kind: 'fact', content: 'the build uses pnpm', source: { session: 's1' } }]);
    const s = spawnAish(['--data-dir', join(home, 'data')], {
      home,
      env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' },
      cols: 160,
    });
    all.push(s);
    await s.waitFor('inbox 1');
    s.write(':memory review\r');
    await s.waitFor('keep? [y/n/e/s]');
    s.write('n\r');
    await s.waitFor('kept 0, dropped 1, skipped 0; 0 still waiting');
    await s.settle();
    expect(status(s)).toMatch(/│ mem \d/);
    expect(status(s)).not.toContain('inbox');
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
  });
});
