/**
 * `aish memory sync` of 10 new records into a repository holding a store of 10k and 100k items,
 * as a whole command (node start, staging, fetch, commit, push, reading what others sent), against
 * the git work alone a sync needs — append a 10-line change, commit, fetch, push, as one `sh -c`
 * of git commands in a clone of an equal repository — measured in the same run, alternating.
 * Ratio ≤ 1.5× is the goal, and the same at 10k and 100k (the cost follows the new records).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../src/memory/store';
import { runSync } from '../src/memory/sync/run';
import { fmt, median, ratio, timeProcess } from './lib';
import { BIN } from './startup';

type Row = string[];

function git(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env,
    stdio: 'ignore',
  });
}

/** A store of `n` items (written as a file, then opened: the same records `add` writes). */
async function bigStore(path: string, n: number): Promise<MemoryStore> {
  const now = Date.now() - n * 1000;
  const lines: string[] = [JSON.stringify({ meta: { format: 'aish-memory', version: 1 } })];
  for (let i = 1; i <= n; i++) {
    const ts = new Date(now + i * 1000).toISOString();
    lines.push(
      JSON.stringify({
        id: i,
        uid: `01BENCH${String(i).padStart(19, '0')}`,
        ts,
        kind: 'fact',
        content: `bench item ${i}: the service on port ${i % 9000} talks to db shard ${i % 17}`,
      }),
    );
  }
  writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });
  return MemoryStore.open(path);
}

export async function benchSync(opts: { sizes?: number[]; runs?: number } = {}): Promise<{ rows: Row[] }> {
  const rows: Row[] = [];
  for (const n of opts.sizes ?? [10_000, 100_000]) rows.push(...(await one(n, opts.runs ?? 11)));
  return { rows };
}

async function one(n: number, runs: number): Promise<Row[]> {
  const base = mkdtempSync(join(tmpdir(), 'aish-bench-sync-'));
  try {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: base, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' };
    const remote = join(base, 'remote.git');
    git(base, env, 'init', '-q', '--bare', remote);
    const data = join(base, 'data');
    mkdirSync(data, { mode: 0o700 });
    const memoryPath = join(data, 'memory.jsonl');
    const store = await bigStore(memoryPath, n);
    await runSync({ memoryPath, remote, timeoutMs: 600_000, env });
    const config = join(base, 'config.ts');
    writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(remote)}, auto: "off" } } };\n`);
    // The baseline: an equal repository (a copy of the remote after the first sync) and a clone of it.
    const plainRemote = join(base, 'plain.git');
    git(base, env, 'clone', '-q', '--bare', remote, plainRemote);
    const clone = join(base, 'clone');
    git(base, env, 'clone', '-q', plainRemote, clone);
    const change = join(clone, 'writers', 'change.jsonl');
    const gitWork = `git add -A && git -c user.name=b -c user.email=b@example.com commit -qm change && git fetch -q origin && git push -q origin HEAD:main`;
    const aishEnv = { ...env, XDG_CONFIG_HOME: join(base, '.config'), XDG_DATA_HOME: join(base, '.local') };
    const sync = async (): Promise<number> => {
      for (let k = 0; k < 10; k++) await store.add('fact', `new record ${k} at ${Date.now()}`);
      return timeProcess(process.execPath, [BIN, '--config', config, '--data-dir', data, 'memory', 'sync'], aishEnv);
    };
    const plain = async (): Promise<number> => {
      appendFileSync(change, Array.from({ length: 10 }, (_, k) => JSON.stringify({ line: k, at: Date.now() })).join('\n') + '\n');
      return timeProcess('sh', ['-c', `cd ${JSON.stringify(clone)} && ${gitWork}`], env);
    };
    // aish's start-up with the same config and data (a command that reads nothing): the floor under any aish command.
    const floor = () => timeProcess(process.execPath, [BIN, '--config', config, '--data-dir', data, 'memory', 'path'], aishEnv);
    await sync();
    await plain();
    await floor();
    const a: number[] = [];
    const b: number[] = [];
    const f: number[] = [];
    const steps = [
      [sync, a],
      [plain, b],
      [floor, f],
    ] as const;
    for (let i = 0; i < runs; i++) {
      // The order rotates, so load on the machine falls on all three alike.
      for (let k = 0; k < 3; k++) {
        const [fn, into] = steps[(i + k) % 3]!;
        into.push(await fn());
      }
    }
    const am = median(a);
    const bm = median(b);
    const fm = median(f);
    return [
      [
        `aish memory sync of 10 new records, store of ${n / 1000}k items (whole command, median of ${runs}, ms)`,
        fmt(am),
        `${fmt(bm)} git add+commit+fetch+push of 10 lines`,
        ratio(am, bm),
      ],
      [
        `… the same less aish's start-up floor (aish memory path: ${fmt(fm)} ms, same run)`,
        fmt(am - fm),
        `${fmt(bm)} the same git work`,
        ratio(am - fm, bm),
      ],
    ];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
