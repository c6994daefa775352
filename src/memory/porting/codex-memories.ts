/**
 * Codex's own memories ($CODEX_HOME/memories), which it writes after sessions:
 * - MEMORY.md: blocks of bullets, each under a `---` header naming the sessions it came from
 *   (`rollout_summary_files:`, each annotated `cwd=…, updated_at=…`), a `description:` and
 *   `keywords:`. The keywords become the items' search keys; the header itself is not memory.
 * - memory_summary.md: `## User Profile` (prose about the user), `## General Tips` (bullets), and
 *   `## What's in Memory`, an index of the folder's files: left out, as aish has no such files.
 * raw_memories.md and rollout_summaries/ are Codex's working inputs to MEMORY.md, not read.
 * Pure: text in, items out.
 */
import { keyList } from '../key-list';
import { HEADING, parseMemoryMarkdown, type MarkdownItem } from './markdown-items';

/** The files of the memories folder that hold memory, in reading order. */
export const CODEX_MEMORY_FILES = ['memory_summary.md', 'MEMORY.md'] as const;

export interface CodexBlock {
  items: MarkdownItem[];
  /** From `keywords:` (key-list.ts). */
  keys: string[];
  /** The working directories of the sessions the block came from (`cwd=` annotations). */
  cwds: string[];
}

export interface CodexMemories {
  blocks: CodexBlock[];
  skippedCode: number;
}

const HEADER_KEY = /^[A-Za-z_][\w-]*:/;

const keywords = (line: string): string[] => keyList(line.replace(/^keywords:\s*/i, '').replace(/^\[|\]$/g, ''));

/** The line after a header that opens at `i` (`---` then `key:`), or -1 when `i` opens none. */
function headerEnd(lines: readonly string[], i: number): number {
  if (lines[i]!.trim() !== '---' || !HEADER_KEY.test(lines[i + 1] ?? '')) return -1;
  for (let j = i + 1; j < lines.length; j++) if (lines[j]!.trim() === '---') return j + 1;
  return -1;
}

/** MEMORY.md: its blocks, each with the keys and working directories its header names. */
export function parseCodexMemory(text: string): CodexMemories {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: CodexBlock[] = [];
  let skippedCode = 0;
  let header: string[] = [];
  let body: string[] = [];
  const flush = () => {
    const parsed = parseMemoryMarkdown(body.join('\n'), 'fact');
    skippedCode += parsed.skippedCode;
    // "Related skill: skills/x/SKILL.md" points at Codex's files, not at something to remember.
    const items = parsed.items.filter((it) => !/^related skills?:/i.test(it.content));
    const keyLine = header.find((l) => /^keywords:/i.test(l));
    const cwds = header.flatMap((l) => [...l.matchAll(/\bcwd=([^,)]+)/g)].map((m) => m[1]!.trim()));
    if (items.length > 0) blocks.push({ items, keys: keyLine ? keywords(keyLine) : [], cwds });
    header = [];
    body = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const end = headerEnd(lines, i);
    if (end < 0) {
      body.push(lines[i]!);
      continue;
    }
    flush();
    header = lines.slice(i + 1, end - 1);
    i = end - 1;
  }
  flush();
  return { blocks, skippedCode };
}

/** memory_summary.md: the profile and the tips; the index of the folder is left out. */
export function parseCodexSummary(text: string): ReturnType<typeof parseMemoryMarkdown> {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  let skipping = 0;
  for (const line of lines) {
    const h = HEADING.exec(line);
    if (h) {
      const level = h[1]!.length;
      if (skipping && level <= skipping) skipping = 0;
      if (!skipping && /^what['’]?s in memory$/i.test(h[2]!.trim())) skipping = level;
    }
    if (!skipping) kept.push(line);
  }
  return parseMemoryMarkdown(kept.join('\n'), 'pref');
}
