import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { commandCatalog } from '../../src/commands/registry';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { tmpDir } from '../helpers/tmp';

async function engineWith(files: Record<string, string> = {}) {
  const home = tmpDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const printed: OutputItem[] = [];
  const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
  const [, input] = Engine.compose(await setup({}, env), host, { env }, routerFor);
  return { input, printed };
}

describe('meta-command registry', () => {
  it('every command has a unique name and aliases, and a one-line summary', () => {
    const names = commandCatalog.all().flatMap((c) => [c.name, ...(c.aliases ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const c of commandCatalog.all()) expect(c.summary).not.toContain('\n');
    expect(commandCatalog.find('q')?.name).toBe('quit');
  });

  it(':help lists every command on its own line', async () => {
    const { input, printed } = await engineWith();
    await input.submit(':help');
    const text = printed.map((p) => p.text).join('\n');
    for (const c of commandCatalog.all()) expect(text).toMatch(new RegExp(`^:${c.name}\\b`, 'm'));
  });

  it(':help COMMAND gives the details, including every :memory subcommand', async () => {
    const { input, printed } = await engineWith();
    await input.submit(':help memory');
    const text = printed.map((p) => p.text).join('\n');
    for (const sub of ['add', 'list', 'forget', 'edit', 'clear', 'inject', 'summarize', 'review', 'share', 'compact', 'path']) {
      expect(text).toMatch(new RegExp(`^  :memory ${sub}\\b`, 'm'));
    }
    await input.submit(':help nope');
    expect(printed.at(-1)).toEqual({ kind: 'error', text: 'no command :nope — see :help' });
  });

  it('completes command names, presets and session names', async () => {
    const { input } = await engineWith({
      '.config/aish/config.ts': "export default { models: { fast: { model: 'a' }, deep: { model: 'b' }, dense: { model: 'c' } } };",
      'data/aish/sessions/trip.jsonl': '{"meta":{"id":"trip","started":"2026-01-01T00:00:00Z","version":1}}\n',
      'data/aish/sessions/triage.jsonl': '{"meta":{"id":"triage","started":"2026-01-01T00:00:00Z","version":1}}\n',
    });
    expect(input.complete(':mo')).toEqual([':model']);
    expect(input.complete(':s')).toEqual([':save', ':session', ':sessions', ':set']);
    expect(input.complete(':model d')).toEqual([':model deep', ':model dense']);
    expect(input.complete(':resume tri')).toEqual([':resume triage', ':resume trip']);
    expect(input.complete(':memory f')).toEqual([':memory forget']);
    expect(input.complete(':memory add ')).toEqual([
      ':memory add --private',
      ':memory add --project',
      ':memory add context',
      ':memory add fact',
      ':memory add pref',
    ]);
    expect(input.complete(':memory add --project ')).toEqual([
      ':memory add --project --private',
      ':memory add --project context',
      ':memory add --project fact',
      ':memory add --project pref',
    ]);
    expect(input.complete(':memory add --private --project ')).toEqual([
      ':memory add --private --project context',
      ':memory add --private --project fact',
      ':memory add --private --project pref',
    ]);
    await input.submit(':remember one');
    await input.submit(':remember two');
    expect(input.complete(':memory forget ')).toEqual([':memory forget 1', ':memory forget 2']);
    expect(input.complete('plain text')).toEqual([]);
    expect(input.complete(':nosuch x')).toEqual([]);
  });
});
