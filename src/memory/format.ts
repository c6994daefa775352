/** Text renderings of memory shared by `aish memory` and the REPL's `:memory`. */
import { tildify } from '../util/paths';
import { lineWarnings } from '../util/line-warnings';
import { terminalSafe } from '../util/terminal-safe';
import { formatAge, staleAgeOf } from '../util/time';
import { isoTime } from './log/parse';
import { sanitizeForBlock } from '../util/text';
import { originLabel, originOf } from './origin';
import type { MemoryItem, SkippedLine } from './types';

export interface ListOptions {
  now: Date;
  injected: ReadonlySet<number>;
  /** Marks pinned items `[pinned]`. */
  isPinned?: (item: MemoryItem) => boolean;
  /** Pinned items [background] has no room for, marked `[pinned, left out: budget]`. */
  pinnedLeftOut?: ReadonlySet<number>;
  /** Ids of items in an unresolved conflict (conflicts.ts), marked `(conflict)`. */
  conflicted?: ReadonlySet<number>;
  /** Cut each row to this many terminal columns, with `fit` (a display-width cut); absent: whole rows. */
  fit?: { width: number; cut: (text: string, width: number) => string };
}

/** One line per item: injection mark, id, age, kind, content. */
export function formatItemLines(items: readonly MemoryItem[], opts: ListOptions): string[] {
  // A loop, not Math.max(...spread): a spread of 100k+ arguments overflows the call stack.
  let idW = 2;
  let ageW = 3;
  const ages = items.map((i) => formatAge(i.ts, opts.now));
  for (let k = 0; k < items.length; k++) {
    idW = Math.max(idW, String(items[k]!.id).length);
    ageW = Math.max(ageW, ages[k]!.length);
  }
  const now = opts.now.getTime();
  const header = `  ${'ID'.padStart(idW)}  ${'AGE'.padEnd(ageW)}  KIND     CONTENT`;
  const rows = items.map((it, k) => {
    const prefix = `${opts.injected.has(it.id) ? '*' : ' '} ${String(it.id).padStart(idW)}  ${ages[k]!.padEnd(ageW)}  ${it.kind.padEnd(7)}  `;
    let content = sanitizeForBlock(it.content);
    if (it.tags?.length) content += `  [${shownField(it.tags.join(', '))}]`;
    if (it.keys?.length) content += `  keys: ${shownField(it.keys.join(', '))}`;
    content += itemMarks(it, opts.isPinned, opts.pinnedLeftOut?.has(it.id));
    if (opts.conflicted?.has(it.id)) content += '  (conflict)';
    // An old item says so in words, as the plan and the model's lines do: months-old memory may no longer hold.
    const age = staleAgeOf(isoTime(it.ts), now);
    if (age) content += `  (${age})`;
    if (opts.fit) content = opts.fit.cut(content, Math.max(10, opts.fit.width - prefix.length));
    return prefix + content;
  });
  return [header, ...rows];
}

/**
 * A field of an item (tag, key, scope, source, author) as a listing shows it, cleaned like its
 * content: a hand-edited or received line may hold a colour sequence (`ESC[30;40m`, black on black)
 * that the output boundary would let through as styling.
 */
export function shownField(text: string): string {
  // Whole sequences go (a tag reads `secret`, not `[30;40msecret`), then any control left.
  return sanitizeForBlock(terminalSafe(text));
}

/** `  [pinned]` (`[pinned, left out: budget]`), `  [project ~/dir]`, `  (private)` and where it came from (`  (from laptop)`), as they follow an item's text in listings. */
export function itemMarks(it: MemoryItem, isPinned?: (it: MemoryItem) => boolean, leftOut = false): string {
  const origin = originLabel(originOf(it));
  return `${isPinned?.(it) ? (leftOut ? '  [pinned, left out: budget]' : '  [pinned]') : ''}${it.scope ? `  [project ${shownField(tildify(it.scope))}]` : ''}${it.private ? '  (private)' : ''}${origin ? `  (${shownField(origin)})` : ''}`;
}

/** The lines memory.jsonl's reader reported: the first named, the rest summed up (util/line-warnings.ts). */
export function formatSkipped(fileLabel: string, skipped: readonly SkippedLine[]): string[] {
  return lineWarnings(fileLabel, skipped, { hint: `\`aish memory compact\` moves the unusable ones to ${fileLabel}.rejected` });
}
