/** A config changed while aish runs: `:model NAME` finds a new preset, `:config reload` says what applies when. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { tmpDir } from '../helpers/tmp';

async function shell(body: string) {
  const home = tmpDir();
  const cfg = join(home, 'config.ts');
  writeFileSync(cfg, body);
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const s = await setup({ config: cfg }, env);
  const printed: OutputItem[] = [];
  const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
  const [engine, parts] = Engine.compose(s, host, { env }, (p) => p);
  return { cfg, engine, parts, input: routerFor(parts), printed, last: () => printed.at(-1)! };
}

describe('config reload', () => {
  it(':model picks up a preset added to the file since start; :config reload names what needs a restart', async () => {
    const t = await shell("export default { models: { fast: { model: 'a' } } };\n");
    await t.input.submit(':model slow');
    expect(t.last()).toMatchObject({ kind: 'error', text: expect.stringContaining('no model preset "slow"') });
    writeFileSync(t.cfg, "export default { models: { fast: { model: 'a' }, slow: { model: 'b' } }, context: { maxTokens: 4000 } };\n");
    await t.input.submit(':model slow');
    expect(t.last().text).toMatch(/^model: slow \(b at /);
    expect(t.parts.models.active.model).toBe('b');
    writeFileSync(t.cfg, "export default { models: { fast: { model: 'a2' }, slow: { model: 'b' } }, context: { maxTokens: 2000 } };\n");
    await t.input.submit(':config reload');
    expect(t.last().text).toMatch(
      /^reloaded .*config\.ts: applied models \(presets: fast, slow\); context changed too — restart aish for it$/,
    );
    writeFileSync(t.cfg, 'export default { models: ');
    await t.input.submit(':config reload');
    expect(t.last().kind).toBe('error'); // a broken file is reported; the running session keeps its config
    expect(t.parts.models.names()).toEqual(['fast', 'slow']);
    await t.input.submit(':config');
    expect(t.last().text).toMatch(/^config: .*config\.ts\ndata: /);
  });

  it('says at start, once, what to do when there is no API key', async () => {
    const home = tmpDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data') };
    const s = await setup({}, env);
    const printed: OutputItem[] = [];
    const e = Engine.create(
      s,
      { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null },
      { env, memory: false },
    );
    e.start();
    expect(printed.filter((p) => p.text.startsWith('welcome to aish'))).toEqual([
      { kind: 'warn', text: expect.stringContaining('export OPENAI_API_KEY=') },
    ]);
    const withKey = Engine.create(
      s,
      { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null },
      { env: { ...env, OPENAI_API_KEY: 'k' }, memory: false },
    );
    withKey.start();
    expect(printed.filter((p) => p.text.startsWith('welcome to aish'))).toHaveLength(1);
    await e.close();
    await withKey.close();
  });
});
