/**
 * How memory reads to the model: the [background] block in the system prompt and the per-turn
 * [recall] block attached to the user's message. Every line is sanitised to one safe line, so a
 * hand-edited item cannot forge a header or break out of its bullet.
 */
import { sanitizeForBlock } from '../util/text';
import type { MemoryItem } from './types';

export const BACKGROUND_HEADER = '[background] (memory loaded at startup; managed via :memory)';
export const RECALL_HEADER = '[recall] (remembered items that may bear on this message; #N is the id in :memory)';

/** One bullet of [background]: `- (kind) text`. */
export function backgroundLine(item: Pick<MemoryItem, 'kind' | 'content'>): string {
  return `- (${item.kind}) ${sanitizeForBlock(item.content)}`;
}

/** One bullet of [recall]: `- #12 (kind) text`, the id so the model and the user can refer to it. */
export function recallLine(item: Pick<MemoryItem, 'id' | 'kind' | 'content'>): string {
  return `- #${item.id} (${item.kind}) ${sanitizeForBlock(item.content)}`;
}

/** '' when there is nothing to say: no header without items. */
export function backgroundBlock(items: readonly Pick<MemoryItem, 'kind' | 'content'>[]): string {
  return items.length ? [BACKGROUND_HEADER, ...items.map(backgroundLine)].join('\n') : '';
}

export function recallBlock(items: readonly Pick<MemoryItem, 'id' | 'kind' | 'content'>[]): string {
  return items.length ? [RECALL_HEADER, ...items.map(recallLine)].join('\n') : '';
}

/**
 * Fill a block of at most `maxChars` (header and newlines counted) from `candidates` in order: an
 * item that does not fit is skipped and the next ones are still tried. `line` renders one item.
 * Returns the chosen items and those that did not fit.
 */
export function fillBlock<T extends { content: string }>(
  header: string,
  candidates: Iterable<T>,
  maxChars: number,
  line: (c: T) => string,
): { chosen: T[]; skipped: T[] } {
  const chosen: T[] = [];
  const skipped: T[] = [];
  let used = header.length;
  for (const c of candidates) {
    const room = maxChars - used - 1;
    // The rendered line is never longer than `- (context) ` / `- #id (context) ` plus the raw
    // text, and only text with runs of white space or control characters gets shorter: most
    // misfits are known without rendering them (at 100k items that is most of the work).
    if (room < 10 || (c.content.length > room && !mayShrink(c.content))) {
      skipped.push(c);
      continue;
    }
    const cost = line(c).length + 1;
    if (cost > room + 1) {
      skipped.push(c);
      continue;
    }
    used += cost;
    chosen.push(c);
  }
  return { chosen, skipped };
}

// eslint-disable-next-line no-control-regex
const SHRINKS = /\s\s|^\s|\s$|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\t\n\r]/;

function mayShrink(text: string): boolean {
  return SHRINKS.test(text);
}
