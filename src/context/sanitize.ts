/**
 * Remembered text goes into the system prompt. It must stay one bullet: no raw line breaks, no
 * control characters, and nothing that reads like one of our block headers.
 */
import type { MemoryItem } from '../memory/types';

// Line breaks in every spelling a terminal, editor or model might honour.
const BREAKS = /[\r\n\u000b\u000c\u0085\u2028\u2029]+/g;
// Other C0/C1 controls (tab becomes a space) and escape sequences that could repaint a terminal.
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g;
const HEADER_LIKE = /\[\s*(background|norris[^\]\n]*|system[^\]\n]*|memory[^\]\n]*)\s*\]/gi;

export function sanitizeForBlock(text: string): string {
  return text
    .replace(BREAKS, ' ')
    .replace(/\t/g, ' ')
    .replace(CONTROLS, '')
    .replace(HEADER_LIKE, (_m, name: string) => `(${name.trim()})`)
    .replace(/ {2,}/g, ' ')
    .trim();
}

export function backgroundLine(item: Pick<MemoryItem, 'kind' | 'content'>): string {
  return `- (${item.kind}) ${sanitizeForBlock(item.content)}`;
}
