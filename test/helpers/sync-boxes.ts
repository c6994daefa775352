/**
 * "Machines" as users run aish against a sync remote: each its own home, data directory and config
 * (`memory.sync` with the remote, a name, auto off); commands run as real processes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realPath } from '../../src/util/paths';
import { runAish, type CliOptions } from './run-cli';
import { git } from './sync-machines';
import { tmpDir } from './tmp';

export interface SyncBox {
  home: string;
  data: string;
  memory: string;
  config: string;
}

/** A fresh directory and an empty bare repository in it (`remote.git`). */
export function bareRemote(prefix: string): { root: string; bare: string } {
  const root = realPath(tmpDir(prefix));
  const bare = join(root, 'remote.git');
  git(root, 'init', '-q', '--bare', bare);
  return { root, bare };
}

/** A box at `home` syncing to `remote` as `name`; `data`: its data directory made now (0700). */
export function syncBox(home: string, remote: string, name: string, o: { data?: boolean } = {}): SyncBox {
  mkdirSync(home, { recursive: true });
  const config = join(home, 'config.ts');
  writeFileSync(
    config,
    `export default { memory: { sync: { remote: ${JSON.stringify(remote)}, name: ${JSON.stringify(name)}, auto: "off" } } };\n`,
  );
  const data = join(home, 'data');
  if (o.data) mkdirSync(data, { recursive: true, mode: 0o700 });
  return { home, data, memory: join(data, 'memory.jsonl'), config };
}

/** aish with the box's config and data directory (60 s unless told). */
export function aishIn(b: SyncBox, args: readonly string[], o: Omit<CliOptions, 'home'> = {}): ReturnType<typeof runAish> {
  return runAish(['--config', b.config, '--data-dir', b.data, ...args], { timeoutMs: 60_000, ...o, home: b.home });
}
