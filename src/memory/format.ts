/** Text renderings of memory shared by `aish memory` and the REPL's `:memory`. */
import { formatAge } from '../util/time';
import { sanitizeForBlock } from '../util/text';
import type { MemoryItem, SkippedLine } from './types';

export interface ListOptions {
  now: Date;
  injected: ReadonlySet<number>;
  /** Cut each row to this many terminal columns, with `fit` (a display-width cut); absent: whole rows. */
  fit?: { width: number; cut: (text: string, width: number) => string };
}

/** One line per item: injection mark, id, age, kind, content. */
export function formatItemLines(items: readonly MemoryItem[], opts: ListOptions): string[] {
  // A loop, not Math.max(...spread): a spread of 100k+ arguments overflows the call stack.
  let idW = 2;
  let ageW = 3;
  for (const i of items) {
    idW = Math.max(idW, String(i.id).length);
    ageW = Math.max(ageW, formatAge(i.ts, opts.now).length);
  }
  const header = `  ${'ID'.padStart(idW)}  ${'AGE'.padEnd(ageW)}  KIND     CONTENT`;
  const rows = items.map((it) => {
    const prefix = `${opts.injected.has(it.id) ? '*' : ' '} ${String(it.id).padStart(idW)}  ${formatAge(it.ts, opts.now).padEnd(ageW)}  ${it.kind.padEnd(7)}  `;
    let content = sanitizeForBlock(it.content);
    if (it.tags?.length) content += `  [${it.tags.join(', ')}]`;
    if (opts.fit) content = opts.fit.cut(content, Math.max(10, opts.fit.width - prefix.length));
    return prefix + content;
  });
  return [header, ...rows];
}

export function formatSkipped(fileLabel: string, skipped: readonly SkippedLine[]): string[] {
  return skipped.map((s) => `${fileLabel}:${s.line}${s.endLine !== undefined ? `-${s.endLine}` : ''}: ${s.reason}`);
}
