/**
 * Sync writes only to a memory repository: one aish made, or an empty one. Checked after each
 * fetch and before anything is written or pushed (docs/memory-sync.md, "A repository that is not
 * ours"):
 * - the remote has no branch but `main`;
 * - `main` holds nothing but aish's layout: `.gitattributes` and `writers/<id>[.<part>].jsonl`, as
 *   regular files;
 * - no commit on `main` ever changed a file outside that layout, and its first commit is aish's
 *   (committed as `aish@localhost` with the subject `aish memory: …`): a repository aish started.
 *   Later commits may be a person's (a hand merge of writer files, which `merge=union` is there
 *   for). The history is read once: the clone keeps the last commit found good (repo.ts), and the
 *   next sync reads only what came after it.
 * A remote on local disk is refused before any of this when it is a repository with a work tree.
 * These tell a project's repository from a memory repository; they are no defence against someone
 * who can push to the memory repository (they can write anything aish would).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AishError } from '../../util/errors';
import { oneLine } from '../../util/text';
import { anythingAt } from '../../util/fs-safe';
import { AISH_EMAIL, gitSaid, shownUrl, type GitResult } from './git';

export const BRANCH = 'main';
const AISH_SUBJECT = /^aish memory: /;
const WRITER_PATH = /^writers\/[0-9a-f]{16}(?:\.[1-9]\d{0,8})?\.jsonl$/;

export const isWriterPath = (path: string): boolean => WRITER_PATH.test(path);
const isLayout = (path: string): boolean => path === '.gitattributes' || isWriterPath(path);

type Git = (args: string[]) => Promise<GitResult>;

class NotMemoryRepo extends AishError {}

function refused(remote: string, why: string): NotMemoryRepo {
  return new NotMemoryRepo(
    `memory sync: ${shownUrl(remote)} is not a memory repository (${why}) — point memory.sync.remote at an empty repository (git init --bare)`,
  );
}

/** Names for a message: at most three, each on one short line. */
function names(list: readonly string[]): string {
  const shown = list.slice(0, 3).map((n) => oneLine(n, 60));
  return list.length > 3 ? `${shown.join(', ')} and ${list.length - 3} more` : shown.join(', ');
}

/** The remote's directory when it is on this machine (a path or a `file://` URL). */
export function localPath(remote: string): string | undefined {
  if (/^file:\/\//i.test(remote)) {
    try {
      return fileURLToPath(remote);
    } catch {
      return undefined;
    }
  }
  return isAbsolute(remote) ? remote : undefined;
}

/**
 * A path on this machine given as the remote that is a repository with a work tree: git refuses
 * to push to its checked-out branch, and it is a project, not a place for memory.
 */
export function refuseWorkTreeRemote(remote: string): void {
  const path = localPath(remote);
  if (path === undefined) return;
  const hasWorkTree =
    anythingAt(join(path, '.git')) || (existsSync(join(path, 'HEAD')) && /^\s*bare\s*=\s*false\s*$/im.test(readText(join(path, 'config'))));
  if (hasWorkTree)
    throw new AishError(
      `memory sync: ${shownUrl(remote)} is a repository with a work tree, not a bare one, and sync pushes only to a bare repository — make one for memory (git init --bare ~/aish-memory.git) and point memory.sync.remote at it`,
    );
}

/** The remote's branches (fetched): none but main. */
export function checkBranches(remote: string, branches: readonly string[]): void {
  const others = branches.filter((b) => b !== BRANCH && b !== 'HEAD');
  if (others.length > 0)
    throw refused(remote, `it has the branch${others.length > 1 ? 'es' : ''} ${names(others)}; aish writes only ${BRANCH}`);
}

const MODES: Record<string, string> = { '100755': 'an executable', '120000': 'a link', '160000': 'a submodule' };

/** The tree of main (path → mode): nothing but aish's layout, as regular files. */
export function checkTree(remote: string, tree: ReadonlyMap<string, { mode: string }>): void {
  const foreign: string[] = [];
  for (const [path, { mode }] of tree) {
    if (!isLayout(path)) foreign.push(path);
    else if (mode !== '100644') foreign.push(`${path} as ${MODES[mode] ?? 'something other than a file'}`);
  }
  if (foreign.length > 0) throw refused(remote, `its ${BRANCH} branch holds ${names(foreign)}`);
}

/**
 * The history of main after `checked` (all of it without it, or when git no longer has it): it
 * starts with a commit aish made, and no commit in it changes a file outside aish's layout.
 */
export async function checkHistory(git: Git, remote: string, head: string, checked: string | undefined): Promise<void> {
  const format = '--format=%x1e%H%x1f%P%x1f%ce%x1f%s%x1f';
  // -m: a merge's changes against each parent, so a file a merge brings in is seen too.
  const log = (range: string[]) => git(['log', '-z', '-m', '--no-renames', '--name-only', format, ...range, '--']);
  let r = checked ? await log([head, `^${checked}`]) : await log([head]);
  if (r.code !== 0 && checked) r = await log([head]);
  if (r.code !== 0) throw new AishError(`memory sync: git log failed: ${gitSaid(r)}`);
  const bad = foreignHistory(r.stdout);
  if (bad) throw refused(remote, bad);
}

/** Why a `git log` (format above) is not a memory repository's history, if it is not. */
function foreignHistory(out: string): string | undefined {
  for (const chunk of out.split('\x1e')) {
    if (!chunk.trim()) continue;
    const parts = chunk.split('\x1f');
    const [sha = '', parents = '', email = ''] = parts;
    const subject = parts.slice(3, -1).join(' ');
    const files = (parts.at(-1) ?? '')
      .split('\0')
      .map((f) => f.replace(/^\n/, ''))
      .filter(Boolean);
    const commit = `${oneLine(sha.slice(0, 7), 12)} "${oneLine(subject, 50)}"`;
    // Anything that does not read as a commit (parsing included) is not ours: fail closed.
    if (parts.length < 5 || !/^[0-9a-f]{40,64}$/.test(sha)) return `its ${BRANCH} branch has history aish cannot read`;
    const other = files.filter((f) => !isLayout(f));
    if (other.length > 0) return `its ${BRANCH} branch has held ${names(other)}, in ${commit}`;
    // Where the history starts says who made the repository (commits after it may be a person's: a hand merge).
    if (!parents.trim() && !(email === AISH_EMAIL && AISH_SUBJECT.test(subject)))
      return `its ${BRANCH} branch was not started by aish: ${commit} is not an aish commit`;
  }
  return undefined;
}

/** The file's text; '' when there is none or it cannot be read. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
