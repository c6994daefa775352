/**
 * A sync killed with SIGKILL at random moments (staging, fetch, commit, push, writing received
 * records): memory.jsonl stays loadable, the repository valid, and the next syncs complete with
 * nothing lost or doubled.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { realPath } from '../../src/util/paths';
import { BIN } from '../helpers/paths';
import { isolatedEnv, runAish } from '../helpers/run-cli';
import { git } from '../helpers/sync-machines';
import { tmpDir } from '../helpers/tmp';

describe('memory sync killed with SIGKILL', () => {
  it('10 random kills: the store loads, the repository is valid, the next syncs lose and double nothing', async () => {
    const root = realPath(tmpDir('aish-sync-kill-'));
    const remote = join(root, 'remote.git');
    git(root, 'init', '-q', '--bare', remote);
    const machines = ['a', 'b', 'c'].map((name) => {
      const home = join(root, name);
      mkdirSync(join(home, 'data'), { recursive: true, mode: 0o700 });
      const config = join(home, 'config.ts');
      writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(remote)}, name: "${name}", auto: "off" } } };\n`);
      return { name, home, config, data: join(home, 'data'), memory: join(home, 'data', 'memory.jsonl') };
    });
    const args = (m: (typeof machines)[number]) => ['--config', m.config, '--data-dir', m.data, 'memory', 'sync', '--yes'];
    const added = new Set<string>();
    let rng = 11;
    const rnd = () => (rng = (rng * 1103515245 + 12345) >>> 0) / 2 ** 32;

    for (let run = 0; run < 10; run++) {
      const m = machines[run % 3]!;
      const store = MemoryStore.open(m.memory);
      for (let k = 0; k < 5; k++) added.add((await store.add('fact', `run ${run} item ${k} from ${m.name}`)).content);
      const forgettable = store.items().find((it) => it.content.includes(`run ${run - 3} item 0`));
      if (forgettable) {
        await store.forget(forgettable.id);
        added.delete(forgettable.content);
      }
      const child = spawn(process.execPath, [BIN, ...args(m)], { env: isolatedEnv(m.home), stdio: 'ignore' });
      const ended = new Promise((r) => child.on('close', r));
      setTimeout(() => child.kill('SIGKILL'), 30 + rnd() * 450);
      await ended;
      const loaded = loadMemory(m.memory);
      expect(loaded.skipped.filter((s) => !/incomplete last line/.test(s.reason))).toEqual([]);
      git(root, '--git-dir', remote, 'fsck', '--no-progress');
    }

    // Two full rounds: everyone completes what was cut short and learns the rest.
    for (let round = 0; round < 2; round++) {
      for (const m of machines) {
        const r = await runAish(args(m), { home: m.home, timeoutMs: 60_000 });
        expect(r.code, r.stderr).toBe(0);
      }
    }
    const expected = [...added].sort();
    for (const m of machines) {
      const items = loadMemory(m.memory).items;
      expect(items.map((it) => it.content).sort()).toEqual(expected);
      expect(new Set(items.map((it) => it.uid)).size).toBe(items.length);
    }
  });
});
