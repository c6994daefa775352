/** Text renderings of memory shared by `aish memory` and the REPL's `:memory`. */
import { sanitizeForBlock } from '../context/sanitize';
import type { MemoryItem, SkippedLine } from './types';

export function formatAge(ts: string, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - Date.parse(ts)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h`;
  if (s < 365 * 86_400) return `${Math.floor(s / 86_400)}d`;
  return `${Math.floor(s / (365 * 86_400))}y`;
}

export interface ListOptions {
  now: Date;
  injected: ReadonlySet<number>;
  /** Cut content to this many columns; undefined prints it whole. */
  width?: number;
}

/** One line per item: injection mark, id, age, kind, content. */
export function formatItemLines(items: readonly MemoryItem[], opts: ListOptions): string[] {
  const idW = Math.max(2, ...items.map((i) => String(i.id).length));
  const ageW = Math.max(3, ...items.map((i) => formatAge(i.ts, opts.now).length));
  const header = `  ${'ID'.padStart(idW)}  ${'AGE'.padEnd(ageW)}  KIND     CONTENT`;
  const rows = items.map((it) => {
    const prefix = `${opts.injected.has(it.id) ? '*' : ' '} ${String(it.id).padStart(idW)}  ${formatAge(it.ts, opts.now).padEnd(ageW)}  ${it.kind.padEnd(7)}  `;
    let content = sanitizeForBlock(it.content);
    if (it.tags?.length) content += `  [${it.tags.join(', ')}]`;
    if (opts.width !== undefined && prefix.length + content.length > opts.width) {
      content = content.slice(0, Math.max(10, opts.width - prefix.length - 1)) + '…';
    }
    return prefix + content;
  });
  return [header, ...rows];
}

export function formatSkipped(fileLabel: string, skipped: readonly SkippedLine[]): string[] {
  return skipped.map((s) => `${fileLabel}:${s.line}${s.endLine !== undefined ? `-${s.endLine}` : ''}: ${s.reason}`);
}
