/**
 * `:memory share ID`: one item appended to `<project root>/.aish/memory/<name>.jsonl` in the
 * project's working tree, for the user to commit like code (aish never commits or pulls). The file
 * is meant to be read by others: 0644, not private. Private items and items whose text matches the
 * secret rules are refused (not redacted: a shared secret reaches every clone and git history).
 */
import { closeSync, constants, fchmodSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AishError, errnoCode, UsageError } from '../../util/errors';
import { appendWholeLines, describeFsError, fsyncDir, openRegular } from '../../util/fs-safe';
import { redactSecrets } from '../../util/secrets/redact';
import { uidOf } from '../log/identity';
import { shownField } from '../format';
import { originLabel, originOf } from '../origin';
import { projectIdentity } from '../project/project-identity';
import type { MemoryItem } from '../types';
import { parseTeamFile, readTeamFileText, teamDir } from './team-file';

export interface ShareResult {
  /** false: nothing written (already shared). */
  changed: boolean;
  text: string;
  /** The file, relative to the project's root. */
  file: string;
}

/** The project `cwd` is in, or a one-line refusal outside any project. */
function shareRoot(cwd: string): { root: string; scope: string } {
  const p = projectIdentity(cwd);
  if (!p.found)
    throw new UsageError('memory share works inside a project — run it in a git repository (or a directory with .aish/project-id)');
  return { root: p.root, scope: p.scopes[0]! };
}

/** Why `item` may not leave the machine, or null. */
function shareRefusal(item: MemoryItem): string | null {
  if ((item as { private?: unknown }).private === true) return `memory ${item.id} is private; private items are never shared`;
  // Shared under the user's name: only what the user wrote here. Another machine's item is shared
  // from that machine; a teammate's, an import's or an agent's would reach the team as the user's.
  const from = originOf(item);
  if (from !== 'here')
    return `memory ${item.id} came from elsewhere (${shownField(originLabel(from))}); only items written here are shared as yours — ${
      from.startsWith('machine:') ? 'share it from that machine' : `put it in your own words first (:memory edit ${item.id} …)`
    }`;
  const found = redactSecrets([item.content, ...(item.tags ?? [])].join('\n')).found;
  if (found.length)
    return `memory ${item.id} looks like it holds a secret (${[...new Set(found)].join(', ')}); not shared — edit it first (:memory edit ${item.id} …)`;
  return null;
}

/** Append `item` as `name`'s, in the project of `cwd`. Refusals throw one line. */
export function shareItem(item: MemoryItem, cwd: string, name: string): ShareResult {
  const { root, scope } = shareRoot(cwd);
  const why = shareRefusal(item);
  if (why) throw new AishError(why);
  const dir = teamDir(root);
  const file = `.aish/memory/${name}.jsonl`;
  const path = join(root, file);
  const uid = uidOf(item);
  // Read as it is read for the team: a link in its place is not followed (the append refuses it too).
  const existing = readTeamFileText(path);
  if (existing !== undefined && parseTeamFile(existing, name, file, []).has(uid))
    return { changed: false, file, text: `memory ${item.id} is already shared in ${file}; nothing written` };
  const rec = {
    uid,
    ...(item.hlc !== undefined && { hlc: item.hlc }),
    ts: item.ts,
    kind: item.kind,
    content: item.content,
    ...(item.tags?.length && { tags: item.tags }),
    scope,
    author: name,
  };
  makeDirs(root, dir);
  appendShared(path, JSON.stringify(rec) + '\n');
  const was = item.scope === undefined ? ' (a global item: shared as this project’s)' : '';
  return { changed: true, file, text: `shared ${item.id} in ${file}${was} — commit it to share it with your team` };
}

/** `.aish` and `.aish/memory` made as needed; a symlink in their place (a hostile checkout) is refused. */
function makeDirs(root: string, dir: string): void {
  for (const d of [dirname(dir), dir]) {
    let st;
    try {
      st = lstatSync(d);
    } catch {
      try {
        mkdirSync(d, { mode: 0o755 });
        fsyncDir(dirname(d));
      } catch (err) {
        throw new AishError(`cannot create ${d}: ${describeFsError(err)} — nothing was shared`);
      }
      continue;
    }
    if (!st.isDirectory()) throw new AishError(`${d} is not a directory — nothing was shared; move it away in ${root}`);
  }
}

function appendShared(path: string, text: string): void {
  let fd: number;
  let created = false;
  try {
    // O_NOFOLLOW: a symlink a checkout put here is not followed to a file elsewhere; openRegular: nor is a FIFO waited on.
    try {
      fd = openRegular(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
      created = true;
    }
  } catch (err) {
    throw new AishError(`cannot write ${path}: ${describeFsError(err)} — nothing was shared`);
  }
  try {
    // Committed with the project: readable by the team, whatever the umask made of it.
    if (created) fchmodSync(fd, 0o644);
    appendWholeLines(fd, text);
  } catch (err) {
    throw new AishError(`cannot write ${path}: ${describeFsError(err)} — nothing was shared`);
  } finally {
    closeSync(fd);
  }
  if (created) fsyncDir(dirname(path));
}
