/**
 * `aish memory add`, in its own module: the command most often run from scripts loads only what
 * an add needs, not the rest of the memory commands, and reads memory.jsonl through its index.
 */
import { basename } from 'node:path';
import type { Setup } from '../../config/setup';
import { addThroughIndex } from '../../memory/index/add';
import { parseKind, parseText, type OpResult } from '../../memory/ops';
import { projectScope } from '../../memory/project/project';
import { projectCreatedAt } from '../../memory/project/project-confirm';
import { AishError } from '../../util/errors';
import { plural } from '../../util/time';
import { memoryOn, storeOptions } from './memory-store';
import { out, warn } from './output';

export const HINT = 'aish memory list';

export function unreadableWarning(s: Setup, n: number): string {
  return `warning: ${basename(s.paths.memoryPath)} has ${plural(n, 'unreadable line')} (see ${HINT})`;
}

function show(r: OpResult): void {
  if (!r.ok) throw new AishError(r.text);
  out(r.text);
}

export async function memoryAdd(
  s: Setup,
  kind: string,
  words: string[],
  opts: { project?: boolean; private?: boolean } = {},
): Promise<void> {
  memoryOn(s);
  const k = parseKind(kind);
  const text = parseText(words.join(' '), 'give the text after the kind');
  const add = { ...(opts.project && { scope: projectScope(process.cwd()) }), ...(opts.private && { private: true }) };
  const r = await addThroughIndex(s.paths.memoryPath, k, text, add, storeOptions());
  if (r.unreadable) warn(unreadableWarning(s, r.unreadable));
  if (r.ok && r.changed && add.scope) await projectCreatedAt(s.paths.memoryPath, process.cwd());
  show(r);
}
