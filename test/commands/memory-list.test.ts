import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

async function engineWithItems(n: number, pageLines?: number) {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const s = await setup({}, env);
  const store = MemoryStore.open(s.paths.memoryPath);
  for (let i = 1; i <= n; i++) await store.add('fact', `item number ${i}`);
  const printed: OutputItem[] = [];
  const host: EngineHost = {
    print: (i) => printed.push(i),
    liveStart() {},
    liveText() {},
    liveEnd() {},
    ask: async () => null,
    ...(pageLines && { pageLines: () => pageLines }),
  };
  const input = Engine.compose(s, host, { env }, routerFor)[1];
  const list = async (args = '') => {
    printed.length = 0;
    await input.submit(`:memory list ${args}`.trim());
    return printed.map((p) => p.text).join('\n');
  };
  return { list };
}

const rows = (text: string) => text.split('\n').filter((l) => /item number/.test(l));

describe(':memory list paging', () => {
  it('shows one screenful per page in the REPL, newest first', async () => {
    const { list } = await engineWithItems(25, 10);
    const p1 = await list();
    expect(rows(p1)).toHaveLength(10);
    expect(rows(p1)[0]).toMatch(/item number 25$/);
    expect(p1).toContain('page 1/3 — :memory list 2 for the next, :memory list --all for everything');
    const p3 = await list('3');
    expect(rows(p3).map((r) => r.replace(/.*item number /, ''))).toEqual(['5', '4', '3', '2', '1']);
    expect(p3).toMatch(/page 3\/3$/m);
    expect(rows(await list('--all'))).toHaveLength(25);
    expect(rows(await list('99'))).toHaveLength(5); // past the end: the last page
  });

  it('without a screen size (plain mode) prints everything', async () => {
    const { list } = await engineWithItems(25);
    const all = await list();
    expect(rows(all)).toHaveLength(25);
    expect(all).not.toContain('page ');
  });
});
