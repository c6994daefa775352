/**
 * The items another tool's files hold, ready for the store: each with `source` naming its file
 * (`claude:~/.claude/CLAUDE.md`) and the scope of where the file lives: none for a user-level file,
 * the project's identity for one in a project. `@path` imports (Claude Code and Gemini CLI) are
 * followed up to IMPORT_DEPTH hops, each file once, with the scope of the file that imports them.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { isFile } from '../../util/fs-safe';
import { realPath } from '../../util/paths';
import { redactText } from '../../util/secrets/redact';
import { readImportFile } from './import-read';
import { capped, LINES_NAMED } from '../../util/line-warnings';
import { importOrigin } from '../origin';
import { projectIdentity } from '../project/project-identity';
import type { TransferItem } from './transfer';
import type { MemoryKind } from '../types';
import { fileRule } from './allowed-files';
import { parseCodexMemory, parseCodexSummary, type CodexBlock } from './codex-memories';
import { parseMemoryMarkdown } from './markdown-items';
import { boundFor, outsideNote, type ReadBound } from './read-bounds';
import type { PortTool, ToolEnv, ToolFile } from './tool-files';

const IMPORT_DEPTH = 5;
/** Files one import reads at most (a file of 100,000 @imports would otherwise read them all). */
const MAX_FILES = 256;

export interface ToolRead {
  items: TransferItem[];
  /** The files read, as shown in `source`. */
  files: string[];
  /** One line each: what was left out and why. */
  notes: string[];
}

function shown(path: string, home: string): string {
  return path === home ? '~' : path.startsWith(home + sep) ? `~${path.slice(home.length)}` : path;
}

/** The scope a file's items get; undefined is global. */
function scopeOf(f: ToolFile, home: string): string | undefined {
  if (f.userLevel) return undefined;
  if (f.projectRoot) return projectIdentity(f.projectRoot).scopes[0];
  const dir = dirname(f.path);
  // A file right in the home directory is the user's, not a project's.
  if (dir === home) return undefined;
  return projectIdentity(dir).scopes[0];
}

// Instruction files mostly say how to work ("use pnpm"): preferences. Gemini's saved memories and
// sections headed "Facts" or "Context" say which kind they are.
const DEFAULT_KIND: MemoryKind = 'pref';

interface ParsedFile {
  groups: CodexBlock[];
  imports: string[];
  skippedCode: number;
}

/** A file's items in groups sharing keys and sessions: Codex's own memory files have blocks, the rest one group. */
function parseFile(tool: PortTool, path: string, text: string): ParsedFile {
  const name = basename(path);
  if (tool === 'codex' && name === 'MEMORY.md') {
    const { blocks, skippedCode } = parseCodexMemory(text);
    return { groups: blocks, imports: [], skippedCode };
  }
  const parsed = tool === 'codex' && name === 'memory_summary.md' ? parseCodexSummary(text) : parseMemoryMarkdown(text, DEFAULT_KIND);
  return { groups: [{ items: parsed.items, keys: [], cwds: [] }], imports: parsed.imports, skippedCode: parsed.skippedCode };
}

/**
 * Codex notes which directories a memory block came from: when they all are in one project on this
 * machine, the block's items are that project's; otherwise (or when they no longer exist) global.
 */
function sessionsScope(cwds: readonly string[]): string | undefined {
  if (cwds.length === 0 || !cwds.every((d) => isAbsolute(d) && existsSync(d))) return undefined;
  const ids = cwds.map((d) => projectIdentity(d));
  if (!ids.every((id) => id.found)) return undefined;
  const first = ids[0]!.scopes[0];
  return ids.every((id) => id.scopes[0] === first) ? first : undefined;
}

/**
 * A line that says nothing once its secret is gone: a label and no value — `Deployment token:
 * [redacted]`, `API key =`, `Password:` — or a label the redaction ran into (`token[redacted]`).
 * Kept, it would be a memory item of a label (and a reminder that a secret was there).
 */
function noValue(content: string): boolean {
  const rest = content
    .replace(/\[redacted\]/g, ' ')
    .replace(/[\s`'"*_.,;]+$/, '')
    .trim();
  if (rest === '') return true;
  if (/[:=]$/.test(rest) && rest.split(/\s+/).length <= 8 && !/[.!?]\s/.test(rest)) return true;
  return /^[^.!?]{1,80}\S\[redacted\][\s`'"*_.,;]*$/.test(content);
}

export function readToolFiles(tool: PortTool, files: readonly ToolFile[], env: ToolEnv): ToolRead {
  const out: ToolRead = { items: [], files: [], notes: [] };
  // This project's auto memory may be read: the project the import runs in, and any a file was listed for.
  const roots = [env.root ?? projectIdentity(process.cwd()).root, ...files.flatMap((f) => (f.projectRoot ? [f.projectRoot] : []))];
  const rule = fileRule(env, roots);
  const seen = new Set<string>();
  const follows = tool === 'claude' || tool === 'gemini';
  const visit = (path: string, scope: string | undefined, depth: number, personal: boolean, bound: ReadBound, ref?: string) => {
    const abs = resolve(path);
    if (seen.has(abs)) return;
    const name = shown(abs, env.home);
    const label = ref ? `@${ref}` : name;
    // What the file is comes first (a link into ~/.codex is named for what it reaches), then where it lies.
    const real = realPath(abs);
    const why = rule.refusal(real);
    if (why) {
      out.notes.push(`${label} not read: ${why}${real !== abs ? ` (a link to ${shown(real, env.home)})` : ''}`);
      return;
    }
    if (bound && !bound(abs)) {
      out.notes.push(`${label} not read: it is ${outsideNote(tool, env)}${ref ? '' : ' (a link to elsewhere?)'}`);
      return;
    }
    // A missing import is skipped (the tool skips it too), but named: a typo in it would otherwise go unseen.
    if (ref && !isFile(abs)) {
      out.notes.push(`${label} not read: ${existsSync(abs) ? 'not a file' : 'no such file'}`);
      return;
    }
    if (seen.size >= MAX_FILES) {
      out.notes.push(`${label} not read: one import reads at most ${MAX_FILES} files`);
      return;
    }
    seen.add(abs);
    let text: string;
    try {
      const r = readImportFile(abs);
      text = r.text;
      for (const p of r.problems) out.notes.push(`${name}:${p}`);
    } catch (err) {
      out.notes.push(err instanceof Error ? err.message : String(err));
      return;
    }
    out.files.push(name);
    const parsed = parseFile(tool, abs, text);
    if (parsed.skippedCode > 0) out.notes.push(`${name}: left out ${parsed.skippedCode} code block(s) (over a few lines, or on their own)`);
    const source = redactText(`${tool}:${name}`);
    let empty = 0;
    for (const group of parsed.groups) {
      const where = scope ?? sessionsScope(group.cwds);
      for (const it of group.items) {
        const content = redactText(it.content);
        if (noValue(content)) {
          empty++;
          continue;
        }
        out.items.push({
          kind: it.kind,
          content,
          ...(it.tags.length > 0 && { tags: it.tags.map(redactText) }),
          ...(group.keys.length > 0 && { keys: group.keys.map(redactText) }),
          source,
          from: importOrigin(tool, name),
          ...(where && { scope: where }),
          ...(personal && { private: true }),
        });
      }
    }
    if (empty > 0) out.notes.push(`${name}: left out ${empty} line(s) with no value (a label whose value is a secret, redacted, or empty)`);
    if (!follows) return;
    for (const ref of parsed.imports) {
      const target = ref.startsWith('~/') ? join(env.home, ref.slice(2)) : isAbsolute(ref) ? ref : join(dirname(abs), ref);
      // Only what names a file is an import: "@alice" in a sentence is a person; `@/etc/hostname`
      // and `@~/x` are paths, extension or not.
      if (!/\.[A-Za-z0-9]+$/.test(target) && !/^(~|\.{1,2})?\//.test(ref)) continue;
      if (depth >= IMPORT_DEPTH) {
        out.notes.push(`${name}: @${ref} not followed (imports go ${IMPORT_DEPTH} deep)`);
        continue;
      }
      visit(target, scope, depth + 1, personal, bound, ref);
    }
  };
  // CLAUDE.local.md is the user's own, kept out of git: its items stay on this machine (never synced,
  // never written to AGENTS.md).
  for (const f of files) visit(f.path, scopeOf(f, env.home), 0, basename(f.path) === 'CLAUDE.local.md', boundFor(f, tool, env));
  // The same file met twice through the same reference is named once; a file of many bad imports is not a page of notes.
  out.notes = capped(
    [...new Set(out.notes)],
    (n) => n,
    (n) => `${n} more notes like these (the first ${LINES_NAMED} are above)`,
  );
  return out;
}
