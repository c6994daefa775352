/**
 * Where a file read on a project's behalf may lead. A cloned repository is someone else's text: its
 * CLAUDE.md saying `@~/.netrc`, or an AGENTS.md that is a link to `~/.aws/credentials`, must not
 * carry the user's own files into memory, and from there to the model, a sync remote or a committed
 * AGENTS.md. So a project's file, and what it imports, must really (links resolved) lie inside the
 * project or in the tool's own directory of the home (`@~/.claude/my-notes.md` is Claude Code's
 * documented way to keep personal instructions out of the repository). The user's own files
 * (`~/.claude/CLAUDE.md`, …) are theirs: what they import is followed anywhere.
 */
import { dirname, sep } from 'node:path';
import { isWithin, realPath } from '../../util/paths';
import { projectIdentity } from '../project/project-identity';
import { userDirs, type PortTool, type ToolEnv, type ToolFile } from './tool-files';

/** Whether a path may be read for this file's reading; null when anything may. */
export type ReadBound = ((path: string) => boolean) | null;

export function boundFor(f: ToolFile, tool: PortTool, env: ToolEnv): ReadBound {
  if (f.userLevel) return null;
  const roots = [projectIdentity(f.projectRoot ?? dirname(f.path)).root, ...userDirs(tool, env)].map(realPath);
  return (path) => {
    const real = realPath(path);
    return roots.some((r) => isWithin(real, r));
  };
}

/** The words for a path left out by a bound. */
export function outsideNote(tool: PortTool, env: ToolEnv): string {
  const own = userDirs(tool, env)
    .map((d) => (d.startsWith(env.home + sep) ? `~${d.slice(env.home.length)}` : d))
    .join(', ');
  return `outside the project${own ? ` and ${own}` : ''}, where a project's files may lead`;
}
