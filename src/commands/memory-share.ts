/** `:memory share ID`: a memory item into this project's `.aish/memory/<name>.jsonl`, for the user to commit. */
import { parseId, type ListHint } from '../memory/ops';
import type { MemoryStore } from '../memory/store';
import type { TeamMemory } from '../memory/team/team-memory';
import { AishError } from '../util/errors';
import { info, type SubCommand } from './types';

/** Share active item `rawId`; one line saying what was written, or why nothing was (thrown). */
export function shareById(store: MemoryStore, team: TeamMemory, rawId: string | undefined, cwd: string, hint: ListHint): string {
  const id = parseId(rawId, hint);
  store.reload();
  const item = store.get(id);
  if (!item) throw new AishError(`no active memory item ${id} (unknown or forgotten); nothing shared (see ${hint})`);
  return team.share(item, cwd).text;
}

export const shareSubcommand: SubCommand<'memory'> = {
  name: 'share',
  args: 'ID',
  help: "write the item to this project's .aish/memory/<name>.jsonl for your team (commit it like code);\nprivate items and secrets are refused",
  run: async ({ memory, argv }) => {
    await memory.ready();
    const text = shareById(memory.store(), memory.team(), argv[0], memory.cwd, ':memory list');
    return { output: [info(text.startsWith('shared') ? `memory: ${text}` : text)] };
  },
};
