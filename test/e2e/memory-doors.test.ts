/**
 * One table of memory verbs, two doors: each verb run as `aish memory VERB` and as `:memory VERB`
 * (the piped REPL, and the real one in a terminal for a few) gives the same result — the same JSON
 * from the same store, the same sentence (but for the REPL's `memory: ` and the listing command each
 * door names), and the same records written.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish, type CliResult } from '../helpers/run-cli';
import { syncNet } from '../helpers/sync-machines';
import { tmpDir } from '../helpers/tmp';
import { realPath } from '../../src/util/paths';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const data = (home: string) => join(home, '.local', 'share', 'aish');

const cli = (home: string, ...args: string[]) => runAish(['memory', ...args], { home, cwd: home, env: env() });
const repl = (home: string, ...lines: string[]) => runAish([], { home, cwd: home, env: env(), input: lines.join('\n') + '\n' });

/**
 * What a door said, in words both share: the REPL's `memory: ` off, each door's listing command
 * named alike. A failure is on stderr in both (the command line also exits 1; piped input goes on).
 */
const said = (r: CliResult) => ({
  stdout: r.stdout.replace(/^memory: /gm, ''),
  stderr: r.stderr.replace(/:memory list/g, 'aish memory list').replace(/^warning: /gm, ''),
});

const json = (r: CliResult): unknown => {
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout);
};

/** Items as listed, without what differs between two writes of the same thing (uid, clock). */
const items = (r: CliResult) =>
  (json(r) as Array<Record<string, unknown>>).map(({ uid: _u, ts: _t, hlc: _h, pinned_at: _p, ...rest }) => rest);

/** Two homes holding the same memory: one for each door. */
async function twins(): Promise<[string, string]> {
  const a = tmpDir();
  for (const [kind, text] of [
    ['fact', 'The build uses make'],
    ['pref', 'Answers in British English'],
    ['context', 'Deploys go through staging'],
  ])
    expect((await cli(a, 'add', kind!, text!)).code).toBe(0);
  const b = tmpDir();
  cpSync(data(a), data(b), { recursive: true });
  return [a, b];
}

const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

// Each verb is a process per door: dozens of starts, slow on a loaded machine.
describe('the memory verbs through both doors', { timeout: 300_000 }, () => {
  it('read verbs: list, list --here, search, plan and log give the same JSON from the same store', async () => {
    const [a] = await twins();
    for (const [args, line] of [
      [['list', '--json'], ':memory list --json'],
      [['list', '--json', '--here'], ':memory list --json --here'],
      [['search', '--json', 'build'], ':memory search --json build'],
      [['search', '--json', '--limit', '1', 'staging'], ':memory search --json --limit 1 staging'],
      [['plan', '--json', 'how do we deploy?'], ':memory plan --json how do we deploy?'],
      [['log', '--json'], ':memory log --json'],
    ] as const) {
      const byCli = json(await cli(a, ...args));
      expect(json(await repl(a, line)), line).toEqual(byCli);
    }
  });

  it('write verbs: each says the same and leaves the same records', async () => {
    const [a, b] = await twins();
    const steps: Array<[string[], string[]]> = [
      [['add', 'fact', 'Tests run with vitest'], [':memory add fact Tests run with vitest']],
      [['add', '--private', 'pref', 'Never  mention the   client'], [':memory add --private pref Never  mention the   client']],
      [['add', 'fact', 'The build uses make'], [':remember The build uses make']],
      [['edit', '1', 'The build uses make -j8 (keys: compile)'], [':memory edit 1 The build uses make -j8 (keys: compile)']],
      [['pin', '2'], [':memory pin 2']],
      [['pin', '2'], [':memory pin 2']],
      [['unpin', '2'], [':memory unpin 2']],
      [['forget', '3'], [':memory forget 3']],
      [['forget', '3'], [':memory forget 3']],
      [['forget', '99'], [':memory forget 99']],
      [['edit', 'x', 'y'], [':memory edit x y']],
      [['compact'], [':memory compact']],
      [['path'], [':memory path']],
      [
        ['clear', '--yes'],
        [':memory clear', 'y'],
      ],
    ];
    for (const [args, lines] of steps) {
      const byCli = said(await cli(a, ...args));
      const byRepl = said(await repl(b, ...lines));
      // The REPL asks before a clear (the question is on stdout); the command line takes --yes.
      if (args[0] === 'clear') byRepl.stdout = byRepl.stdout.replace(/^forget all .*\[y\/N\] \n/, '');
      if (args[0] === 'path') byRepl.stdout = byRepl.stdout.replace(data(b), data(a));
      expect(byRepl, args.join(' ')).toEqual(byCli);
      expect(items(await repl(b, ':memory list --json')), args.join(' ')).toEqual(items(await cli(a, 'list', '--json')));
    }
  });

  it('an import is undone the same way from either door', async () => {
    const [a, b] = await twins();
    const other = tmpDir();
    for (const text of ['Logs go to journald', 'Short commit messages']) expect((await cli(other, 'add', 'fact', text)).code).toBe(0);
    const file = join(other, 'more.jsonl');
    expect((await cli(other, 'export', file)).code).toBe(0);
    for (const home of [a, b]) expect((await cli(home, 'import', file)).code).toBe(0);
    const receipt = (json(await cli(a, 'log', '--json')) as Array<{ id: string }>)[0]!.id;
    expect(said(await repl(b, `:memory undo ${receipt}`))).toEqual(said(await cli(a, 'undo', receipt)));
    expect(items(await repl(b, ':memory list --json'))).toEqual(items(await cli(a, 'list', '--json')));
  });

  it('memory: false — both doors refuse every verb with one line and write nothing', async () => {
    const home = tmpDir();
    writeFileSync(join(home, 'config.ts'), 'export default { memory: false };\n');
    const config = ['--config', join(home, 'config.ts')];
    for (const verb of ['list', 'add fact x', 'pin 1', 'log', 'undo r1', 'share 1', 'trust-project']) {
      const r = await runAish([...config, 'memory', ...verb.split(' ')], { home, cwd: home, env: env() });
      expect(r.stderr, verb).toMatch(
        /^aish: memory is off in the config \(memory: false in .*\) — nothing done; remove that line to use aish memory\n$/,
      );
      const p = await runAish(config, { home, cwd: home, env: env(), input: `:memory ${verb}\n` });
      expect(p.stderr, verb).toBe('aish: memory is off in the config (memory: false) — remove that line to use :memory\n');
    }
  });

  it('the REPL in a terminal: search --json and pin answer as aish memory does', async () => {
    const [a, b] = await twins();
    const s = spawnAish([], { home: b, cwd: b, env: env(), cols: 200 });
    all.push(s);
    await s.waitFor('mem 3');
    const mark = s.text().length;
    s.write(':memory search --json staging\r');
    await s.waitFor(/\]\s*$/m, { from: mark });
    const shown = /\[\s*\{[\s\S]*\}\s*\]/.exec(s.text().slice(mark))![0];
    expect(JSON.parse(shown)).toEqual(json(await cli(a, 'search', '--json', 'staging')));
    s.write(':memory pin 2\r');
    await s.waitFor('memory: pinned 2');
    expect((await cli(a, 'pin', '2')).stdout).toBe('pinned 2\n');
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
    expect(items(await cli(b, 'list', '--json'))).toEqual(items(await cli(a, 'list', '--json')));
  });
});

describe('the background sync at start', () => {
  it('runs in the REPL process: what it received is listed and in [background], the status says so, and :quit does not wait', async () => {
    const net = syncNet();
    const laptop = net.machine('laptop');
    const store = laptop.store();
    await store.add('fact', 'The laptop says releases are on Thursdays');
    store.close();
    await laptop.sync();

    const home = realPath(join(net.root, 'desk-home'));
    mkdirSync(home, { recursive: true });
    const config = join(home, 'config.ts');
    writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(net.remote)}, name: "desk" } } };\n`);
    const s = spawnAish(['--config', config], { home, cwd: home, env: env(), cols: 200 });
    all.push(s);
    await s.waitFor('synced ↑0 ↓1', { timeoutMs: 30_000 });
    await s.waitFor('mem 1');
    s.write(':memory list\r');
    await s.waitFor(/\*\s+1\s+.*fact\s+The laptop says releases are on Thursdays/);
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
  });
});
