/**
 * Where each tool keeps what it remembers, as its own documentation lays it out:
 * - Claude Code: CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md in every directory from the
 *   project's root down to the working directory, the project's .claude/rules/*.md; the user's
 *   ~/.claude/CLAUDE.md and ~/.claude/rules/*.md; its auto memory in
 *   ~/.claude/projects/<the project's path, non-alphanumerics as "-">/memory/*.md.
 * - Gemini CLI: GEMINI.md from the project's root down; the user's ~/.gemini/GEMINI.md (where its
 *   save_memory tool writes the "Gemini Added Memories" section).
 * - Codex: per directory from the root down AGENTS.override.md, else AGENTS.md; the user's
 *   $CODEX_HOME (default ~/.codex) AGENTS.override.md, else AGENTS.md, and the memories Codex
 *   writes itself in $CODEX_HOME/memories (codex-memories.ts).
 * - agents (the open AGENTS.md convention): AGENTS.md from the project's root down; no user file.
 * - Antigravity CLI: AGENTS.md from the project's root down and the project's .agents/rules/*.md;
 *   the user's ~/.gemini/antigravity-cli/AGENTS.md.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { isFile } from '../../util/fs-safe';
import { isWithin } from '../../util/paths';
import { CODEX_MEMORY_FILES } from './codex-memories';

export const PORT_TOOLS = ['claude', 'gemini', 'codex', 'agents', 'antigravity'] as const;
export type PortTool = (typeof PORT_TOOLS)[number];

export function isPortTool(s: string): s is PortTool {
  return (PORT_TOOLS as readonly string[]).includes(s);
}

export interface ToolFile {
  path: string;
  /** A user-level file applies everywhere; any other belongs to the project it lives in. */
  userLevel: boolean;
  /** Claude Code's auto memory lives under the user's directory but belongs to one project. */
  projectRoot?: string;
}

export interface ToolEnv {
  home: string;
  /** Codex's home ($CODEX_HOME), when set. */
  codexHome?: string;
  /** The project the import runs in (whose auto memory may be read); default: the working directory's. */
  root?: string;
}

function mdIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => join(dir, n))
      .filter(isFile);
  } catch {
    return [];
  }
}

/** The file names a tool reads in one project directory, in its order. */
function namesIn(tool: PortTool, dir: string): string[] {
  if (tool === 'claude') return ['CLAUDE.md', join('.claude', 'CLAUDE.md'), 'CLAUDE.local.md'].map((n) => join(dir, n)).filter(isFile);
  if (tool === 'gemini') return [join(dir, 'GEMINI.md')].filter(isFile);
  if (tool === 'codex') return [join(dir, 'AGENTS.override.md'), join(dir, 'AGENTS.md')].filter(isFile).slice(0, 1);
  return [join(dir, 'AGENTS.md')].filter(isFile);
}

/** The directory Claude Code keeps a project's auto memory in. */
export function claudeProjectDir(home: string, root: string): string {
  return join(home, '.claude', 'projects', root.replace(/[^A-Za-z0-9]/g, '-'));
}

/** The directories the user-level files of a tool live in (a file there is global). */
export function userDirs(tool: PortTool, env: ToolEnv): string[] {
  if (tool === 'claude') return [join(env.home, '.claude')];
  if (tool === 'gemini') return [join(env.home, '.gemini')];
  if (tool === 'codex') return [env.codexHome ?? join(env.home, '.codex')];
  if (tool === 'antigravity') return [join(env.home, '.gemini', 'antigravity-cli')];
  return [];
}

function userFiles(tool: PortTool, env: ToolEnv): string[] {
  const [dir] = userDirs(tool, env);
  if (!dir) return [];
  if (tool === 'claude') return [join(dir, 'CLAUDE.md')].filter(isFile).concat(mdIn(join(dir, 'rules')));
  if (tool === 'gemini') return [join(dir, 'GEMINI.md')].filter(isFile);
  if (tool === 'antigravity') return [join(dir, 'AGENTS.md')].filter(isFile);
  return [join(dir, 'AGENTS.override.md'), join(dir, 'AGENTS.md')]
    .filter(isFile)
    .slice(0, 1)
    .concat(codexMemories(join(dir, 'memories')));
}

/** The files of a Codex memories folder that hold memory. */
function codexMemories(dir: string): string[] {
  return CODEX_MEMORY_FILES.map((n) => join(dir, n)).filter(isFile);
}

/** Every file the tool would read for `cwd` inside the project at `root`, user-level ones first. */
export function defaultToolFiles(tool: PortTool, root: string, cwd: string, env: ToolEnv): ToolFile[] {
  const out: ToolFile[] = userFiles(tool, env).map((path) => ({ path, userLevel: true }));
  const rel = relative(root, cwd);
  const steps = rel && !rel.startsWith('..') ? rel.split(sep) : [];
  const dirs = [root, ...steps.map((_, k) => join(root, ...steps.slice(0, k + 1)))];
  for (const d of dirs) for (const path of namesIn(tool, d)) out.push({ path, userLevel: false });
  if (tool === 'claude') {
    for (const path of mdIn(join(root, '.claude', 'rules'))) out.push({ path, userLevel: false });
    for (const path of mdIn(join(claudeProjectDir(env.home, root), 'memory'))) out.push({ path, userLevel: false, projectRoot: root });
  }
  if (tool === 'antigravity') for (const path of mdIn(join(root, '.agents', 'rules'))) out.push({ path, userLevel: false });
  return out;
}

/** The files under a PATH the user named: the file itself, or what the tool reads in that directory. */
export function filesAt(tool: PortTool, path: string, root: string, env: ToolEnv): ToolFile[] {
  // This project's auto memory belongs to it; another's is read as global (its directory name
  // cannot be turned back into a path: "-" stands for every non-alphanumeric character).
  const auto = tool === 'claude' && isWithin(path, claudeProjectDir(env.home, root)) ? { projectRoot: root } : {};
  const inUserDir = (p: string) => !auto.projectRoot && userDirs(tool, env).some((d) => isWithin(p, d));
  if (!existsSync(path) || !statSync(path).isDirectory()) return [{ path, userLevel: inUserDir(path), ...auto }];
  if (userDirs(tool, env).includes(path)) return userFiles(tool, env).map((p) => ({ path: p, userLevel: true }));
  const found = namesIn(tool, path);
  // Claude Code's auto-memory directory, or Codex's memories folder, named directly.
  const files =
    found.length > 0
      ? found
      : tool === 'claude' || (tool === 'antigravity' && path.endsWith(join('.agents', 'rules')))
        ? mdIn(path)
        : tool === 'codex'
          ? codexMemories(path)
          : [];
  return files.map((p) => ({ path: p, userLevel: inUserDir(p), ...auto }));
}
