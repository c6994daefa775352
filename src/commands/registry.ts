/** Every meta command in one list; lookup, dispatch, suggestions and Tab completion. */
import type { Engine } from '../engine/engine';
import { closest } from '../util/suggest';
import { coreCommands } from './core';
import { memoryCommands } from './memory';
import { modelCommands } from './model';
import { norrisCommands } from './norris';
import { toolCommands } from './tools';
import { sessionCommands } from './session';
import type { MetaCommand } from './types';

let registry: MetaCommand[] | null = null;

export function allCommands(): MetaCommand[] {
  registry ??= [...coreCommands, ...modelCommands, ...memoryCommands, ...sessionCommands, ...toolCommands, ...norrisCommands];
  return registry;
}

export function findCommand(name: string): MetaCommand | undefined {
  return allCommands().find((c) => c.name === name || c.aliases?.includes(name));
}

function names(): string[] {
  return allCommands().flatMap((c) => [c.name, ...(c.aliases ?? [])]);
}

export async function dispatchMeta(engine: Engine, line: string): Promise<{ quit: boolean }> {
  const body = line.slice(1).trim();
  const name = body.split(/\s+/, 1)[0] ?? '';
  const rest = body.slice(name.length).trim();
  const cmd = findCommand(name);
  if (!cmd) {
    const hint = closest(name, names());
    engine.host.print({ kind: 'error', text: `unknown command :${name} — try :help${hint ? ` (did you mean :${hint}?)` : ''}` });
    return { quit: false };
  }
  const result = await cmd.run({ engine, rest, argv: rest ? rest.split(/\s+/) : [] });
  for (const item of result?.output ?? []) engine.host.print(item);
  return { quit: result?.quit === true };
}

/**
 * Tab completion of a whole input line: command names after ':', then the command's own
 * arguments. Returns the candidate full lines (sorted, unique).
 */
export function completeLine(engine: Engine, line: string): string[] {
  if (!line.startsWith(':')) return [];
  const m = /^:(\S*)$/.exec(line);
  if (m) {
    const typed = m[1]!;
    return [...new Set(allCommands().map((c) => c.name).filter((n) => n.startsWith(typed)))].sort().map((n) => `:${n}`);
  }
  const words = line.slice(1).split(/\s+/);
  const cmd = findCommand(words[0]!);
  if (!cmd?.complete) return [];
  const word = words[words.length - 1]!;
  const before = words.slice(1, -1);
  const prefix = line.slice(0, line.length - word.length);
  return [...new Set(cmd.complete(engine, before, word).filter((c) => c.startsWith(word)))].sort().map((c) => prefix + c);
}
