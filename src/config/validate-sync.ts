/** `memory.sync`: where this store's memory is synced (docs/memory-sync.md). */
import { isAbsolute, resolve } from 'node:path';
import { expandHome } from '../util/paths';
import type { Checker } from './checker';
import type { SyncConfig } from './types';

/** scp-like `user@host:path`, or a URL with a scheme git speaks: anything else is a local path. */
const REMOTE_URL = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/|[^/\s:]+@[^/\s:]+:|[A-Za-z0-9.-]+:(?!\/\/))/;

export function validateSync(c: Checker, v: unknown): SyncConfig {
  const s = c.object('memory.sync', v, ['remote', 'auto', 'name']);
  const raw = c.str('memory.sync.remote', s.remote, { nonEmpty: true }).trim();
  // A remote is handed to git: never an option, never a transport that runs a command.
  if (raw.startsWith('-') || /^ext::|^fd::/i.test(raw) || /[\0\n\r]/.test(raw))
    c.fail('memory.sync.remote', 'a git URL or a path to a repository', raw);
  const remote = REMOTE_URL.test(raw) && !isAbsolute(raw) ? raw : resolve(expandHome(raw));
  const auto = s.auto === undefined ? 'start' : c.oneOf('memory.sync.auto', s.auto, ['start', 'off']);
  const name = c.optStr('memory.sync.name', s.name);
  if (name !== undefined && !/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}$/.test(name))
    c.fail('memory.sync.name', 'a label of letters, digits, space, ".", "_" or "-" (at most 60)', name);
  return { remote, auto, ...(name !== undefined && { name }) };
}
