/**
 * The name a shared item is filed under (`.aish/memory/<name>.jsonl`): `memory.sync.name` when the
 * config sets one, else git's `user.name` (the repository's config, then the global files, read as
 * files: no child process), else the login name — made safe for a file name.
 */
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { AishConfig } from '../../config/types';
import { configValue, findRepository, readSmallFile } from '../project/git-repo';

/** Lowercase `[a-z0-9._-]`, at most 64 characters, starting with a letter or digit; '' when nothing is left. */
export function safeName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[^a-z0-9]+$/, '');
}

/** The last `name` of the `[user]` section in git config text (git's rule: the last one wins). */
export function userNameIn(text: string): string | undefined {
  let inUser = false;
  let name: string | undefined;
  for (let line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (header) {
      inUser = header[1]!.toLowerCase() === 'user';
      line = line.slice(header[0].length);
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=(.*)$/.exec(line);
    if (inUser && kv && kv[1]!.toLowerCase() === 'name') name = configValue(kv[2]!);
  }
  return name?.trim() || undefined;
}

/** git's user.name as git itself would find it for `dir`: the repository, then ~/.gitconfig, then the XDG file. */
export function gitUserName(dir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const repo = findRepository(dir);
  const home = env.HOME ?? '';
  const xdg = env.XDG_CONFIG_HOME || join(home, '.config');
  const files = [
    ...(repo ? [join(repo.commonDir, 'config')] : []),
    ...(home ? [join(home, '.gitconfig')] : []),
    join(xdg, 'git', 'config'),
  ];
  for (const f of files) {
    const text = readSmallFile(f, 1 << 20);
    const name = text === undefined ? undefined : userNameIn(text);
    if (name) return name;
  }
  return undefined;
}

/** The configured sync label (`memory.sync.name`). */
function syncName(config: AishConfig): string | undefined {
  return config.memory ? config.memory.sync?.name : undefined;
}

function loginName(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.LOGNAME ?? '';
  }
}

/** The safe author name for sharing from `dir`. */
export function authorName(config: AishConfig, dir: string, env: NodeJS.ProcessEnv = process.env): string {
  for (const raw of [syncName(config), gitUserName(dir, env), loginName(env)]) {
    const safe = raw === undefined ? '' : safeName(raw);
    if (safe) return safe;
  }
  return 'user';
}
