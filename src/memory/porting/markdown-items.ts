/**
 * Memory items out of an instructions file (CLAUDE.md, GEMINI.md, AGENTS.md): one item per bullet
 * or paragraph. Headings are not items: the nearest one becomes the item's tag, and a heading named
 * for a kind ("Facts", "Preferences", "Context", Gemini's "Gemini Added Memories") sets the kind of
 * what follows. A short fenced code block (up to CODE_MAX_LINES lines) stays with the bullet or
 * paragraph just before it, as inline code; a longer one, or one with nothing before it, is skipped
 * (a script is not a memory). `@path` imports (Claude Code, Gemini CLI) outside code are returned for
 * the reader to follow. Pure: text in, items out.
 */
import type { MemoryKind } from '../types';

const CODE_MAX_LINES = 3;

export interface MarkdownItem {
  kind: MemoryKind;
  content: string;
  tags: string[];
}

export interface MarkdownItems {
  items: MarkdownItem[];
  /** `@path` references in the order met, as written (relative to the file, absolute or `~/…`). */
  imports: string[];
  /** Fenced blocks left out (too long, or with no bullet or paragraph to belong to). */
  skippedCode: number;
}

/** An ATX heading: its level's hashes, then its text. */
export const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s*(`{3,}|~{3,})/;
const RULE = /^\s*([-*_])(\s*\1){2,}\s*$/;
const IMPORT = /(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.-][\w./-]*)/g;
const ONLY_IMPORTS = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+)?(?:@(?:~\/|\.{1,2}\/|\/)?[\w.-][\w./-]*[\s,;]*)+$/;

/** The kind a heading names, if it names one. */
function headingKind(text: string): MemoryKind | undefined {
  const t = text.toLowerCase();
  if (/^(facts?|gemini added memories|memories|user profile|about me)$/.test(t)) return 'fact';
  if (/^(pref(erence)?s?)$/.test(t)) return 'pref';
  if (/^context$/.test(t)) return 'context';
  return undefined;
}

function tagOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[`*_[\]()]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}

/** One line of words: the line breaks of a wrapped paragraph are not part of what it says. */
function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function parseMemoryMarkdown(text: string, defaultKind: MemoryKind): MarkdownItems {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const items: MarkdownItem[] = [];
  const imports: string[] = [];
  let skippedCode = 0;
  let kind = defaultKind;
  let tag: string | undefined;
  const levels: Array<{ level: number; kind: MemoryKind }> = [];
  // The item being gathered: a paragraph's lines, or a bullet and its continuation lines.
  let open: { parts: string[] } | null = null;
  let lastBullet: { indent: number; text: string } | null = null;
  let previous: MarkdownItem | undefined;
  let i = 0;

  const close = () => {
    if (!open) return;
    const body = clean(open.parts.join(' '));
    open = null;
    if (!body) return;
    previous = { kind, content: body, tags: tag ? [tag] : [] };
    items.push(previous);
  };

  // Front matter (Claude Code rules files carry `paths:` there) is settings, not memory.
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) i = end + 1;
  }
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      close();
      const marker = fence[1]!;
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(marker); i++) body.push(lines[i]!);
      const code = body.map((l) => l.trim()).filter(Boolean);
      if (previous && code.length > 0 && code.length <= CODE_MAX_LINES) previous.content += ` \`${code.join('; ')}\``;
      else if (code.length > 0) skippedCode++;
      continue;
    }
    if (/^\s*<!--.*-->\s*$/.test(line)) continue;
    for (const m of line.replace(/`[^`]*`/g, '').matchAll(IMPORT)) imports.push(m[1]!.replace(/\.+$/, ''));
    // A line (or a bullet) of nothing but imports says where to read, not what to remember: it is
    // not glued onto the bullet or paragraph above it.
    if (ONLY_IMPORTS.test(line)) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      close();
      previous = undefined;
      lastBullet = null;
      const title = clean(heading[2]!);
      // A kind heading covers the headings under it, not the ones beside it.
      const level = heading[1]!.length;
      while (levels.length > 0 && levels.at(-1)!.level >= level) levels.pop();
      kind = headingKind(title) ?? levels.at(-1)?.kind ?? defaultKind;
      levels.push({ level, kind });
      tag = headingKind(title) ? undefined : tagOf(title) || undefined;
      continue;
    }
    if (!line.trim() || RULE.test(line) || /^\s*\|/.test(line)) {
      close();
      if (line.trim()) lastBullet = null;
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      close();
      const indent = bullet[1]!.replace(/\t/g, '    ').length;
      const textOf = clean(bullet[2]!.replace(/^\[[ xX]\]\s+/, ''));
      // A sub-bullet under "Testing:" reads as "Testing: use vitest"; under a full sentence it stands alone.
      const parent = lastBullet && indent > lastBullet.indent && /:$/.test(lastBullet.text) ? lastBullet.text : undefined;
      if (parent && items.at(-1)?.content === parent) items.pop();
      open = { parts: [parent ? `${parent} ${textOf}` : textOf] };
      if (!parent || indent <= (lastBullet?.indent ?? 0)) lastBullet = { indent, text: textOf };
      continue;
    }
    if (open) open.parts.push(line);
    else {
      if (!/^\s/.test(line)) lastBullet = null;
      open = { parts: [line] };
    }
  }
  close();
  return { items: items.filter((it) => !/^@\S+$/.test(it.content)), imports, skippedCode };
}
