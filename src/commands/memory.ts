/** :remember TEXT and :memory with its subcommands, one table; the operations are memory/ops.ts. */
import { basename } from 'node:path';
import { formatItemLines, formatSkipped } from '../memory/format';
import { addItem, clearAll, compactFile, editItem, forgetItem, parseId, parseKind, parseText, type OpResult } from '../memory/ops';
import type { MemorySession } from '../memory/session';
import { MEMORY_KINDS, unreadableCount, type MemoryKind } from '../memory/types';
import { confirm } from '../core/host';
import { UsageError } from '../util/errors';
import { plural } from '../util/time';
import { summarizeSubcommand } from './memory-summarize';
import { afterWords, info, warn, type CommandResult, type MetaCommand, type SubCommand } from './types';

const HINT = ':memory list';

/** Success lines say `memory: …`; a refusal (nothing written) is said plainly. */
function show(r: OpResult): CommandResult {
  return { output: [info(r.changed ? `memory: ${r.text}` : r.text)] };
}

async function add(memory: MemorySession, kind: MemoryKind, text: string): Promise<CommandResult> {
  await memory.ready();
  const r = await addItem(memory.store(), kind, text);
  memory.reselect();
  const live = memory.injected.some((i) => i.id === r.item.id);
  return { output: [info(`memory: ${r.text}${live || !memory.injecting ? '' : ' — not injected: over injectMaxChars'}`)] };
}

/** Ids of active items for Tab. */
function completeIds({ memory }: { memory: MemorySession }, argv: string[], word: string): string[] {
  if (argv.length > 0) return [];
  try {
    return memory.store().items().map((i) => String(i.id)).filter((id) => id.startsWith(word));
  } catch {
    return [];
  }
}

/** `:memory list [PAGE|--all]`: a screenful at a time in the REPL, so 100k items do not flood it. */
function list({ memory, ui, argv }: { memory: MemorySession; ui: { pageLines?(): number }; argv: string[] }): CommandResult {
  const arg = argv[0];
  if (arg !== undefined && arg !== '--all' && !/^\d+$/.test(arg)) throw new UsageError('usage: :memory list [PAGE | --all]');
  const store = memory.store();
  store.reload();
  const items = store.items();
  const out = [];
  const unreadable = unreadableCount(store.skipped);
  if (unreadable) out.push(warn(`${basename(memory.path)}: ${plural(unreadable, 'unreadable line')} (see :memory inject)`));
  if (items.length === 0) return { output: [...out, info('memory is empty — add with :remember TEXT')] };
  const per = arg === '--all' ? undefined : ui.pageLines?.();
  const pages = per ? Math.ceil(items.length / per) : 1;
  const page = Math.min(Math.max(1, Number(arg ?? '1') || 1), pages);
  const shown = per ? items.slice((page - 1) * per, page * per) : items;
  const injected = new Set(memory.injected.map((i) => i.id));
  const lines = formatItemLines(shown, { now: new Date(), injected });
  lines.push(memory.injecting ? `${plural(items.length, 'item')}; * = in the system prompt now (${injected.size})` : `${plural(items.length, 'item')}; injection is off (--no-memory)`);
  if (pages > 1) lines.push(`page ${page}/${pages}${page < pages ? ` — :memory list ${page + 1} for the next, :memory list --all for everything` : ''}`);
  return { output: [...out, info(lines.join('\n'))] };
}

/** A fresh load (hand edits, other shells, compaction) replaces what is injected. */
function inject(memory: MemorySession): CommandResult {
  const snap = memory.store().reload(true);
  memory.reselect();
  const out = formatSkipped(basename(memory.path), snap.skipped).map(warn);
  const skipped = snap.skipped.length ? `; ${plural(snap.skipped.length, 'line')} skipped` : '';
  out.push(
    info(
      memory.injecting
        ? `memory: injected ${memory.injected.length} of ${plural(snap.items.length, 'item')} (budget ${memory.budget} chars)${skipped}`
        : `memory: ${plural(snap.items.length, 'item')} loaded; injection is off (--no-memory)`,
    ),
  );
  return { output: out };
}

const subcommands: SubCommand<'memory' | 'ui' | 'models' | 'chat' | 'sessions'>[] = [
  {
    name: 'add',
    args: 'KIND TEXT',
    help: 'remember TEXT; KIND is fact, pref or context (:remember TEXT = add fact)',
    complete: (_ctx, argv) => (argv.length === 0 ? [...MEMORY_KINDS] : []),
    run: ({ memory, argv, rest }) => add(memory, parseKind(argv[0]), parseText(afterWords(rest, 1), 'usage: :memory add KIND TEXT')),
  },
  {
    name: 'list',
    args: '[PAGE|--all]',
    help: 'active items, newest first: id, age, kind, text; * = in the system prompt;\na screenful per page in the REPL',
    run: async (ctx) => {
      await ctx.memory.ready();
      return list(ctx);
    },
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
    help: "replace an item's text (new item + tombstone, one locked write)",
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
  {
    name: 'inject',
    help: 'reload memory.jsonl (after a hand edit) and report unreadable lines',
    run: async ({ memory }) => {
      await memory.ready();
      return inject(memory);
    },
  },
  summarizeSubcommand,
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

export const rememberCommand: MetaCommand<'memory'> = {
  name: 'remember',
  args: 'TEXT',
  summary: 'remember a fact across sessions (:memory add fact TEXT)',
  run: ({ memory, rest }) => add(memory, 'fact', parseText(rest, 'usage: :remember TEXT')),
};

export const memoryCommand: MetaCommand<'memory' | 'ui' | 'models' | 'chat' | 'sessions'> = {
  name: 'memory',
  summary: 'manage cross-session memory (add KIND TEXT, forget ID, edit ID TEXT, …)',
  subcommands,
  defaultSub: 'list',
};
