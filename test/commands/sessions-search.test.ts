import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { appendDigest } from '../../src/sessions/digest';
import { SessionLog } from '../../src/sessions/session-log';
import { tmpDir } from '../helpers/tmp';

async function shellWithSessions() {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const s = await setup({}, env);
  const day = (d: number) => new Date(Date.now() - d * 86_400_000);
  const names: string[] = [];
  for (const [d, content] of [
    [9, 'We decided to keep the billing database in PostgreSQL.'],
    [5, 'The deploy script lives in scripts/deploy.sh'],
    [2, 'Lunch is at noon'],
  ] as const) {
    const log = SessionLog.create(s.paths.sessionsDir, {}, day(d));
    log.append({ role: 'user', content: 'where do things live?', ts: day(d).toISOString() });
    log.append({ role: 'assistant', content, ts: day(d).toISOString() });
    log.close();
    names.push(log.id);
  }
  // The oldest session gets a digest whose summary alone has the word "flamingo".
  const first = join(s.paths.sessionsDir, `${names[0]!}.jsonl`);
  appendDigest(first, { ts: day(9).toISOString(), title: 'Billing storage', summary: 'Chose flamingo as the codename.' });
  const printed: OutputItem[] = [];
  const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
  const input = Engine.compose(s, host, { env }, routerFor)[1];
  const run = async (line: string) => {
    printed.length = 0;
    await input.submit(line);
    return printed;
  };
  return { run, input, names };
}

describe(':sessions search', () => {
  it('prints NAME AGE ROLE snippet for a turn three sessions ago', async () => {
    const { run, names } = await shellWithSessions();
    const out = await run(':sessions search PostgreSQL databases');
    expect(out).toHaveLength(1);
    expect(out[0]!.kind).toBe('info');
    expect(out[0]!.text).toBe(`${names[0]!.padEnd(24)}   9d  assistant  We decided to keep the billing database in PostgreSQL.`);
  });

  it('one line per hit, most words first; nothing found and bad queries say so', async () => {
    const { run, names } = await shellWithSessions();
    const lines = (await run(':sessions search deploy lives'))[0]!.text.split('\n');
    expect(lines.map((l) => l.split(/\s+/).slice(0, 3))).toEqual([
      [names[1], '5d', 'assistant'], // both words
      [names[2], '2d', 'user'], // "live" only, newest first
      [names[1], '5d', 'user'],
      [names[0], '9d', 'user'],
    ]);
    expect(await run(':sessions search kubernetes')).toEqual([{ kind: 'info', text: 'no turn matches "kubernetes"' }]);
    expect(await run(':sessions search')).toEqual([
      { kind: 'error', text: 'usage: :sessions search TEXT (words to look for in past sessions)' },
    ]);
    const stop = await run(':sessions search the of it');
    expect(stop[0]!.kind).toBe('error');
    expect(stop[0]!.text).toMatch(/^nothing to search for in "the of it" — /);
  });

  it(':sessions alone still lists; :help sessions and Tab show search', async () => {
    const { run, input, names } = await shellWithSessions();
    const list = (await run(':sessions'))[0]!.text;
    for (const n of names) expect(list).toContain(n);
    expect((await run(':sessions list'))[0]!.text).toBe(list);
    const help = (await run(':help sessions'))[0]!.text;
    expect(help).toMatch(/^:sessions list \| search — /);
    expect(help).toMatch(/^ {2}:sessions search TEXT +turns of every session that mention TEXT/m);
    expect(input.complete(':sessions s')).toEqual([':sessions search']);
    expect(input.complete(':sessions ')).toEqual([':sessions list', ':sessions search']);
  });

  it('finds a word only a digest summary has, and :sessions shows the title', async () => {
    const { run, names } = await shellWithSessions();
    const out = await run(':sessions search flamingo');
    expect(out).toEqual([{ kind: 'info', hang: 4, text: `${names[0]!.padEnd(24)}   9d  summary    Chose flamingo as the codename.` }]);
    const list = (await run(':sessions'))[0]!.text.split('\n');
    expect(list.find((l) => l.includes(names[0]!))).toMatch(/ 1 turn {3}Billing storage$/);
    expect(list.find((l) => l.includes(names[1]!))).toMatch(/ 1 turn {3}where do things live\?$/);
  });
});
