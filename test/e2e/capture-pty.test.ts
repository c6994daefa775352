/** Capture in the real REPL in a pseudo-terminal: `inbox N`, the quit line, review, and :remember that supersedes. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Inbox } from '../../src/memory/review/inbox';
import { MemoryStore } from '../../src/memory/store';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));
function start(home: string, extra: string[] = []): PtySession {
  const s = spawnAish([...extra, '--data-dir', join(home, 'data')], {
    home,
    env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k', AISH_CAPTURE: undefined },
    cols: 160,
  });
  all.push(s);
  return s;
}

describe('capture in the REPL', () => {
  it('shows inbox N, reviews with y/s, says at quit how many still wait', async () => {
    const home = tmpDir();
    const mem = join(home, 'data', 'memory.jsonl');
    await MemoryStore.open(mem).add('fact', 'CI runs on Node 18');
    await Inbox.open(mem).add([
      { kind: 'fact', content: 'CI runs on Node 20', supersedes: 1, source: { session: 's1', quote: 'we moved CI to Node 20' } },
      { kind: 'pref', content: 'answers in French', source: { session: 's1' } },
    ]);
    const a = start(home);
    await a.waitFor('inbox 2');
    a.write(':memory review\r');
    await a.waitFor('old #1 (fact): CI runs on Node 18');
    await a.waitFor('keep? [y/n/e/s]');
    a.write('y\r');
    await a.waitFor('kept as #2, forgot #1');
    await a.waitFor('(pref) answers in French');
    a.write('s\r');
    await a.waitFor('kept 1, dropped 0, skipped 1; 1 still waiting');
    await a.waitFor('inbox 1');
    a.write(':quit\r');
    await a.waitFor('inbox: 1 memory candidate waits for review');
    expect(await a.exitCode()).toBe(0);
    expect(
      MemoryStore.open(mem)
        .items()
        .map((i) => i.content),
    ).toEqual(['CI runs on Node 20']);
  });

  it(':remember that updates an item asks to replace it; y forgets the old one in the same append', async () => {
    const home = tmpDir();
    const a = start(home);
    await a.waitFor('mem 0');
    a.write(':remember my editor is vim\r');
    await a.waitFor('memory: added 1 (fact)');
    a.write(':remember my editor is emacs\r');
    await a.waitFor('this looks like an update of #1');
    await a.waitFor('replace #1? [y/N]');
    a.write('y\r');
    await a.waitFor('memory: added 2 (fact), forgot 1');
    a.write('\x04');
    expect(await a.exitCode()).toBe(0);
    const lines = readFileSync(join(home, 'data', 'memory.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.slice(-2).map((l) => JSON.parse(l) as { kind: string })).toEqual([
      expect.objectContaining({ id: 2, content: 'my editor is emacs' }),
      expect.objectContaining({ kind: 'forget', target: 1 }),
    ]);
  });

  it('says once when old turns leave the window', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { context: { maxTokens: 300 } };\n');
    const a = start(home, ['--config', cfg]);
    await a.waitFor('mem 0');
    fake.server.setDefault((req) => ({ text: `answered ${/step (\d+)/.exec(lastUserText(req))?.[1]}` }));
    const long = 'lorem ipsum dolor sit amet '.repeat(12);
    for (let i = 0; i < 6; i++) {
      a.write(`step ${i} ${long}\r`);
      await a.waitFor(`answered ${i}`);
    }
    await a.waitFor(/context full: \d+ oldest turns left the window \(summarised into the working state\)/);
    expect(a.text().match(/context full/g)).toHaveLength(1);
    a.write('\x04');
    expect(await a.exitCode()).toBe(0);
  });
});
