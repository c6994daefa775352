/** :remember TEXT and :memory with its subcommands, one table; the operations are memory/ops.ts. */
import {
  clearAll,
  compactFile,
  editItem,
  forgetItem,
  parseId,
  parseKind,
  parseText,
  pinItem,
  takeAddFlags,
  type OpResult,
} from '../memory/ops';
import { pinReport } from '../memory/background/pins-left-out';
import type { MemorySession } from '../memory/session';
import { MEMORY_KINDS, type MemoryKind } from '../memory/types';
import { confirm } from '../core/host';
import { AishError } from '../util/errors';
import { plural } from '../util/time';
import { addWithSupersede, type AddWhere } from './memory-add';
import { logSubcommand, undoSubcommand } from './memory-log';
import { reviewSubcommand } from './memory-review';
import { syncSubcommand } from './memory-sync';
import { shareSubcommand } from './memory-share';
import { summarizeSubcommand } from './memory-summarize';
import { trustProjectSubcommand } from './memory-trust';
import { viewSubcommands } from './memory-view';
import { command, afterWords, info, warn, type CommandResult, type SubCommand } from './types';

const HINT = ':memory list';

/**
 * Success lines say `memory: …`; nothing to do is said plainly; a request that cannot be done (an
 * unknown or forgotten id) is an error like any other (`✗`, stderr in piped mode), as in `aish memory`.
 */
function show(r: OpResult): CommandResult {
  if (!r.ok) throw new AishError(r.text);
  return { output: [info(r.changed ? `memory: ${r.text}` : r.text)] };
}

/** `:memory add [--project] [--private] KIND TEXT` / `:remember [--project] [--private] TEXT`. */
function addArgs(rest: string, withKind: boolean): { where: AddWhere; kind: MemoryKind; text: string } {
  const words = rest.split(/\s+/).filter(Boolean);
  const f = takeAddFlags(words);
  const skip = f.flags + (withKind ? 1 : 0);
  const usage = withKind ? 'usage: :memory add [--project] [--private] KIND TEXT' : 'usage: :remember [--project] [--private] TEXT';
  const where = { project: f.project, private: f.private };
  return { where, kind: withKind ? parseKind(f.words[0]) : 'fact', text: parseText(afterWords(rest, skip), usage) };
}

/** Pin or unpin, then say whether the item is in [background], and which pinned items are left out (budget). */
async function pin(memory: MemorySession, rawId: string | undefined, on: boolean): Promise<CommandResult> {
  await memory.ready();
  const id = parseId(rawId, HINT);
  const before = memory.background().pinnedLeftOut;
  const r = await pinItem(memory.store(), id, on, HINT);
  if (!r.ok) return show(r);
  if (r.changed) memory.reselect();
  const report = pinReport(id, on, before, memory.background(), memory.budget);
  return {
    output: [info(r.changed ? `memory: ${r.text}` : r.text), ...report.map((n) => (n.kind === 'warn' ? warn(n.text) : info(n.text)))],
  };
}

/** Ids of active items for Tab. */
function completeIds({ memory }: { memory: MemorySession }, argv: string[], word: string): string[] {
  if (argv.length > 0) return [];
  try {
    return memory
      .store()
      .items()
      .map((i) => String(i.id))
      .filter((id) => id.startsWith(word));
  } catch {
    return [];
  }
}

const subcommands: SubCommand<'memory' | 'ui' | 'models' | 'chat' | 'run' | 'sessions' | 'config'>[] = [
  {
    name: 'add',
    args: '[--project] [--private] KIND TEXT',
    help: 'remember TEXT; KIND is fact, pref or context (:remember TEXT = add fact);\n--project: only for this git repository (or directory); --private: never synced',
    complete: (_ctx, argv) =>
      argv.some((a) => a !== '--project' && a !== '--private')
        ? []
        : [...MEMORY_KINDS, ...['--project', '--private'].filter((f) => !argv.includes(f))],
    run: ({ memory, ui, rest }) => {
      const a = addArgs(rest, true);
      return addWithSupersede(memory, ui, a.kind, a.text, a.where);
    },
  },
  ...viewSubcommands,
  {
    name: 'pin',
    args: 'ID',
    help: 'always put this item first in [background]',
    complete: completeIds,
    run: ({ memory, argv }) => pin(memory, argv[0], true),
  },
  {
    name: 'unpin',
    args: 'ID',
    help: 'undo :memory pin',
    complete: completeIds,
    run: ({ memory, argv }) => pin(memory, argv[0], false),
  },
  {
    name: 'forget',
    args: 'ID',
    help: 'forget one item (a tombstone is appended; nothing is rewritten)',
    complete: completeIds,
    run: async ({ memory, argv }) => {
      await memory.ready();
      const r = await forgetItem(memory.store(), parseId(argv[0], HINT), HINT);
      if (r.changed) memory.reselect();
      return show(r);
    },
  },
  {
    name: 'edit',
    args: 'ID TEXT',
    help: "replace an item's text (new item + tombstone, one locked write); `(keys: a, b)` at the end sets its search words",
    complete: completeIds,
    run: async ({ memory, argv, rest }) => {
      await memory.ready();
      const id = parseId(argv[0], HINT);
      const r = await editItem(memory.store(), id, parseText(afterWords(rest, 1), 'usage: :memory edit ID TEXT'), HINT);
      if (r.changed) memory.reselect();
      return show(r);
    },
  },
  {
    name: 'clear',
    help: 'forget every item, after a [y/N] question (Enter keeps them)',
    run: async ({ memory, ui }) => {
      await memory.ready();
      const r = await clearAll(memory.store(), (n) => confirm(ui, `forget all ${plural(n, 'memory item')}?`));
      if (r.changed) memory.reselect();
      return show(r);
    },
  },
  summarizeSubcommand,
  reviewSubcommand,
  logSubcommand,
  undoSubcommand,
  syncSubcommand,
  shareSubcommand,
  trustProjectSubcommand,
  {
    name: 'compact',
    help: 'rewrite the file without forgotten items and tombstones',
    run: async ({ memory }) => {
      await memory.ready();
      const r = await compactFile(memory.store());
      memory.reselect();
      return show(r);
    },
  },
  {
    name: 'path',
    help: 'where memory.jsonl is',
    run: ({ memory }) => ({ output: [info(memory.path)] }),
  },
];

export const rememberCommand = command({
  needs: ['memory', 'ui'],
  name: 'remember',
  args: '[--project] [--private] TEXT',
  summary: 'remember a fact across sessions (:memory add fact TEXT); --project: for this repository only; --private: never synced',
  run: ({ memory, ui, rest }) => {
    const a = addArgs(rest, false);
    return addWithSupersede(memory, ui, 'fact', a.text, a.where);
  },
});

export const memoryCommand = command({
  needs: ['memory', 'ui', 'models', 'chat', 'run', 'sessions', 'config'],
  name: 'memory',
  summary: 'manage cross-session memory (add KIND TEXT, forget ID, pin ID, plan, search TEXT, …)',
  subcommands,
  defaultSub: 'list',
});
