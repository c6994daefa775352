/**
 * A project's memory as a section of AGENTS.md, the file Codex, Gemini CLI (when configured) and
 * other agents read. The section sits between two comment markers so that exporting again replaces
 * it and nothing else in the file; its headings name the kinds, so `aish memory import --from agents`
 * reads each item back with its kind. Pure: items and text in, text out.
 */
import { redactText } from '../../util/secrets/redact';
import { MEMORY_KINDS, type MemoryItem, type MemoryKind } from '../types';
import { parseMemoryMarkdown } from './markdown-items';

export const SECTION_START = '<!-- aish memory -->';
export const SECTION_END = '<!-- /aish memory -->';

const HEADINGS: Record<MemoryKind, string> = { fact: 'Facts', pref: 'Preferences', context: 'Context' };

/** The marked section (no trailing newline): a heading per kind, one bullet per item, oldest first. */
export function agentsMdSection(items: readonly MemoryItem[]): string {
  const out = [SECTION_START, '## Project memory (from aish)', ''];
  for (const kind of MEMORY_KINDS) {
    const mine = items.filter((it) => it.kind === kind).reverse();
    if (mine.length === 0) continue;
    out.push(`### ${HEADINGS[kind]}`, '');
    // One line per bullet: a line break inside an item would start a paragraph of its own.
    for (const it of mine)
      out.push(
        `- ${redactText(it.content)
          .replace(/\s*\n\s*/g, ' ')
          .trim()}`,
      );
    out.push('');
  }
  if (out.length === 3) out.push('<!-- no project items yet -->', '');
  out.push(SECTION_END);
  return out.join('\n');
}

export type Placed = { ok: true; text: string } | { ok: false; reason: string };

/** `existing` with its aish section replaced by `section`, or the section appended when it has none. */
export function placeSection(existing: string, section: string): Placed {
  const start = existing.indexOf(SECTION_START);
  const end = existing.indexOf(SECTION_END);
  if (start === -1 && end === -1) {
    if (!existing.trim()) return { ok: true, text: section + '\n' };
    return { ok: true, text: existing.replace(/\n*$/, '\n\n') + section + '\n' };
  }
  if (start === -1 || end < start || existing.indexOf(SECTION_START, start + 1) !== -1) {
    return { ok: false, reason: `its ${SECTION_START} … ${SECTION_END} markers are not one pair in order` };
  }
  return { ok: true, text: existing.slice(0, start) + section + existing.slice(end + SECTION_END.length) };
}

/** Text compared loosely: case, spacing, and the punctuation that ends a line do not make it new. */
const loose = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.;,!]+$/, '')
    .trim();

/**
 * The items worth writing into `existing` (a file's text): not those it already says outside its
 * aish section, nor those imported from it (`fromThisFile` reads an item's `source`) unless the
 * section itself holds them — exporting into the AGENTS.md the items came from must not say them
 * twice, nor drop what an earlier export wrote.
 */
export function notYetInFile(
  items: readonly MemoryItem[],
  existing: string,
  fromThisFile: (source: string) => boolean,
): { items: MemoryItem[]; present: number } {
  const start = existing.indexOf(SECTION_START);
  const end = existing.indexOf(SECTION_END);
  const paired = start !== -1 && end > start;
  const outside = paired ? existing.slice(0, start) + existing.slice(end + SECTION_END.length) : existing;
  const textsOf = (text: string) => new Set(parseMemoryMarkdown(text, 'pref').items.map((it) => loose(redactText(it.content))));
  const said = textsOf(outside);
  const inSection = paired ? textsOf(existing.slice(start, end)) : new Set<string>();
  const kept = items.filter((it) => {
    const text = loose(redactText(it.content).replace(/\s*\n\s*/g, ' '));
    if (said.has(text)) return false;
    return !(it.source !== undefined && fromThisFile(it.source)) || inSection.has(text);
  });
  return { items: kept, present: items.length - kept.length };
}
