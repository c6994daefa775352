/** `:remember` that updates an item you already have: old and new side by side, `replace #N? [y/N]`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import { routerFor } from '../../src/input/router';
import { tmpDir } from '../helpers/tmp';
import { recordingHost } from '../helpers/host';

async function repl(answers: Array<string | null>) {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const s = await setup({}, env);
  const { host, printed, asked } = recordingHost(answers, { interactive: true });
  const [engine, parts] = Engine.compose(s, host, { env }, (p) => p);
  return {
    s,
    engine,
    parts,
    input: routerFor(parts),
    printed,
    asked,
    file: () => readFileSync(s.paths.memoryPath, 'utf8').trim().split('\n'),
  };
}

describe(':remember that updates an active item', () => {
  it("y: the new item and the old one's tombstone in one append, both shown first", async () => {
    const t = await repl(['y']);
    await t.input.submit(':remember CI runs on Node 18');
    await t.input.submit(':remember CI runs on Node 20');
    expect(t.asked).toEqual(['replace #1? [y/N] ']);
    const texts = t.printed.map((p) => p.text);
    expect(texts).toContain('this looks like an update of #1:\n  old #1 (fact): CI runs on Node 18\n  new    (fact): CI runs on Node 20');
    expect(texts.at(-1)).toBe('memory: added 2 (fact), forgot 1');
    const lines = t.file().map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(-2)).toEqual([
      expect.objectContaining({ id: 2, content: 'CI runs on Node 20' }),
      expect.objectContaining({ kind: 'forget', target: 1 }),
    ]);
    expect(
      t.parts.memory
        .store()
        .items()
        .map((i) => i.content),
    ).toEqual(['CI runs on Node 20']);
  });

  it('Enter (or nobody to ask) keeps both; unrelated and duplicate items are not asked about', async () => {
    const t = await repl(['', null]);
    await t.input.submit(':remember my editor is vim');
    await t.input.submit(':remember my editor is emacs');
    await t.input.submit(':remember my editor is helix');
    await t.input.submit(':remember the staging host is zebra-17');
    await t.input.submit(':remember the staging host is zebra-17');
    expect(t.asked).toEqual(['replace #1? [y/N] ', 'replace #2? [y/N] ']);
    expect(
      t.parts.memory
        .store()
        .items()
        .map((i) => i.content),
    ).toEqual(['the staging host is zebra-17', 'my editor is helix', 'my editor is emacs', 'my editor is vim']);
    expect(t.printed.at(-1)!.text).toBe('already remembered as #4; nothing written');
  });

  it('is not asked without a person at a terminal (piped input adds, as before)', async () => {
    const t = await repl(['y']);
    (t.parts.host as { interactive?: boolean }).interactive = false;
    await t.input.submit(':remember CI runs on Node 18');
    await t.input.submit(':remember CI runs on Node 20');
    expect(t.asked).toEqual([]);
    expect(t.parts.memory.store().items()).toHaveLength(2);
  });
});
