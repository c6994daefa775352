/**
 * `aish memory add`, in its own module: the command most often run from scripts loads only what
 * an add needs (quick-add.ts), not the rest of the memory commands.
 */
import { basename } from 'node:path';
import type { Setup } from '../../config/setup';
import { addItem, parseKind, parseText, type OpResult } from '../../memory/ops';
import { projectScope } from '../../memory/project';
import { quickAddItem } from '../../memory/quick-add';
import { unreadableCount } from '../../memory/types';
import { AishError } from '../../util/errors';
import { plural } from '../../util/time';
import { memoryOn, openStore, storeOptions } from './memory-store';
import { out, warn } from './output';

export const HINT = 'aish memory list';

export function unreadableWarning(s: Setup, n: number): string {
  return `warning: ${basename(s.paths.memoryPath)} has ${plural(n, 'unreadable line')} (see ${HINT})`;
}

function show(r: OpResult): void {
  if (!r.ok) throw new AishError(r.text);
  out(r.text);
}

export async function memoryAdd(s: Setup, kind: string, words: string[], opts: { project?: boolean } = {}): Promise<void> {
  memoryOn(s);
  const k = parseKind(kind);
  const text = parseText(words.join(' '), 'give the text after the kind');
  const scope = opts.project ? { scope: projectScope(process.cwd()) } : {};
  // The add index answers without reading the file; when only a full read can tell, the store does it.
  const quick = await quickAddItem(s.paths.memoryPath, k, text, scope, storeOptions());
  if (quick) {
    if (quick.unreadable) warn(unreadableWarning(s, quick.unreadable));
    show(quick);
    return;
  }
  const store = openStore(s);
  const n = unreadableCount(store.skipped);
  if (n) warn(unreadableWarning(s, n));
  show(await addItem(store, k, text, scope));
}
