/**
 * Which files an import may read, as an allowlist of what each tool documents as memory, never a
 * list of what to avoid. A tool's home directory holds far more than memory — Claude Code's
 * `history.jsonl`, `.credentials.json`, `settings.json`, session transcripts and every other
 * project's auto memory; Codex's `history.jsonl`, `auth.json`, `config.toml`, `sessions/` — and a
 * cloned repository's CLAUDE.md can point at any of them (`@~/.claude/history.jsonl`), as can a link.
 * So, with links resolved, a file inside a tool's home is read only when it is one of these:
 * - `~/.claude`: `CLAUDE.md` and the other `*.md` beside it (the docs' way to keep personal
 *   instructions out of a repository, `@~/.claude/my-notes.md`), `rules/**∕*.md`, and this
 *   project's auto memory `projects/<this project's key>/memory/*.md`;
 * - `~/.gemini`: `GEMINI.md` and the other `*.md` beside it, and Antigravity's
 *   `antigravity-cli/AGENTS.md`;
 * - `$CODEX_HOME` (`~/.codex`): `AGENTS.md`, `AGENTS.override.md`, `memories/MEMORY.md`,
 *   `memories/memory_summary.md`.
 * Anywhere else only Markdown or plain text is memory (`.md`, `.markdown`, `.mdx`, `.txt`), and
 * nothing under a `.git` directory. Each refusal says why, in words a user can act on.
 */
import { basename, extname, join, relative, sep } from 'node:path';
import { isWithin, realPath } from '../../util/paths';
import { claudeProjectDir, type ToolEnv } from './tool-files';

const MEMORY_EXT = new Set(['.md', '.markdown', '.mdx', '.txt']);

interface Home {
  tool: string;
  dir: string;
  /** Why a file at this relative path is left out, or null when the tool documents it as memory. */
  why(rel: string[]): string | null;
}

const isMd = (name: string | undefined) => name !== undefined && extname(name).toLowerCase() === '.md';

function claudeWhy(rel: string[], projectKeys: ReadonlySet<string>): string | null {
  const [first, second, third] = rel;
  if (rel.length === 1 && isMd(first)) return null;
  if (first === 'rules' && isMd(rel.at(-1))) return null;
  if (first === 'projects' && second !== undefined) {
    if (!projectKeys.has(second)) return "another project's Claude Code memory";
    if (third === 'memory' && rel.length === 4 && isMd(rel[3])) return null;
    if (rel.at(-1)?.endsWith('.jsonl')) return 'a Claude Code session transcript';
    return "not this project's Claude Code auto memory (projects/…/memory/*.md)";
  }
  if (first === 'history.jsonl') return "Claude Code's prompt history";
  if (first === '.credentials.json') return "Claude Code's credentials";
  if (first?.startsWith('settings')) return "Claude Code's settings";
  return 'not a memory file Claude Code documents (CLAUDE.md, *.md beside it, rules/*.md, this project’s auto memory)';
}

function geminiWhy(rel: string[]): string | null {
  const [first] = rel;
  if (rel.length === 1 && isMd(first)) return null;
  if (first === 'antigravity-cli')
    return rel.length === 2 && rel[1] === 'AGENTS.md' ? null : 'not a memory file Antigravity documents (antigravity-cli/AGENTS.md)';
  if (first === 'oauth_creds.json' || first === 'google_accounts.json' || first === 'mcp-oauth-tokens.json')
    return "Gemini CLI's credentials";
  if (first === 'settings.json') return "Gemini CLI's settings";
  if (first === 'tmp' || first === 'history') return "Gemini CLI's session history";
  return 'not a memory file Gemini CLI documents (GEMINI.md, *.md beside it)';
}

function codexWhy(rel: string[]): string | null {
  const path = rel.join('/');
  if (['AGENTS.md', 'AGENTS.override.md', 'memories/MEMORY.md', 'memories/memory_summary.md'].includes(path)) return null;
  const [first] = rel;
  if (first === 'history.jsonl') return "Codex's prompt history";
  if (first === 'auth.json') return "Codex's credentials";
  if (first === 'config.toml') return "Codex's settings";
  if (first === 'sessions' || first === 'archived_sessions') return 'a Codex session transcript';
  if (first === 'memories') return "Codex's working drafts, not its memory (memories/MEMORY.md and memory_summary.md are)";
  return 'not a memory file Codex documents (AGENTS.md, AGENTS.override.md, memories/MEMORY.md, memories/memory_summary.md)';
}

/** The tools' home directories, real paths, with what each documents. `roots`: this project's root(s). */
function homes(env: ToolEnv, roots: readonly string[]): Home[] {
  const keys = new Set(roots.flatMap((r) => [r, realPath(r)]).map((r) => basename(claudeProjectDir(env.home, r))));
  return [
    { tool: 'claude', dir: join(env.home, '.claude'), why: (rel: string[]) => claudeWhy(rel, keys) },
    { tool: 'gemini', dir: join(env.home, '.gemini'), why: geminiWhy },
    { tool: 'codex', dir: env.codexHome ?? join(env.home, '.codex'), why: codexWhy },
  ].map((h) => ({ ...h, dir: realPath(h.dir) }));
}

export interface FileRule {
  /** Why the file (already resolved through links) is left out; null: it may be read. */
  refusal(real: string): string | null;
}

export function fileRule(env: ToolEnv, roots: readonly string[]): FileRule {
  const hs = homes(env, roots);
  return {
    refusal(real) {
      const h = hs.find((d) => isWithin(real, d.dir));
      if (h) return h.why(relative(h.dir, real).split(sep));
      if (real.split(sep).includes('.git')) return 'inside a .git directory';
      if (!MEMORY_EXT.has(extname(real).toLowerCase())) return 'not a Markdown or text file (memory files are Markdown)';
      return null;
    },
  };
}
