/** The reading side of `:memory`: list, plan, search, inject. */
import { basename } from 'node:path';
import { conflictedIds, findConflicts } from '../memory/review/conflicts';
import { formatItemLines, formatSkipped } from '../memory/format';
import { formatPlan, formatSearch } from '../memory/recall/format-plan';
import { listedLeftOutLine } from '../memory/background/pins-left-out';
import { scopeFilter } from '../memory/project/project';
import { formatTeamLines } from '../memory/team/team-format';
import type { MemorySession } from '../memory/session';
import { unreadableCount } from '../memory/types';
import { UsageError } from '../util/errors';
import { plural } from '../util/time';
import { info, rows, warn, type CommandResult, type SubCommand } from './types';

/** `:memory list [PAGE|--all]`: a screenful at a time in the REPL, so 100k items do not flood it. */
function list({ memory, ui, argv }: { memory: MemorySession; ui: { pageLines?(): number }; argv: string[] }): CommandResult {
  const here = argv.includes('--here');
  const args = argv.filter((a) => a !== '--here');
  const arg = args[0];
  if (args.length > 1 || (arg !== undefined && arg !== '--all' && !/^\d+$/.test(arg)))
    throw new UsageError('usage: :memory list [--here] [PAGE | --all]');
  const store = memory.store();
  store.reload();
  const all = store.items();
  const applies = scopeFilter(memory.cwd);
  const items = here ? all.filter(applies) : all;
  const team = formatTeamLines(memory.team(), memory.cwd, new Date(), ':memory review');
  const out = team.warnings.map((w) => warn(w));
  const unreadable = unreadableCount(store.skipped);
  if (unreadable) out.push(warn(`${basename(memory.path)}: ${plural(unreadable, 'unreadable line')} (see :memory inject)`));
  if (items.length === 0)
    return {
      output: [
        ...out,
        info(
          here && all.length
            ? `no memory item applies here (${plural(all.length, 'item')} in other projects)`
            : 'memory is empty — add with :remember TEXT',
        ),
        ...(team.lines.length ? [rows(team.lines.join('\n'))] : []),
      ],
    };
  const per = arg === '--all' ? undefined : ui.pageLines?.();
  const pages = per ? Math.ceil(items.length / per) : 1;
  const page = Math.min(Math.max(1, Number(arg ?? '1') || 1), pages);
  const shown = per ? items.slice((page - 1) * per, page * per) : items;
  const injected = new Set(memory.injected.map((i) => i.id));
  const conflicted = conflictedIds(findConflicts(store, memory.inbox()));
  const leftOut = memory.injecting ? memory.background().pinnedLeftOut : [];
  const pinnedLeftOut = new Set(leftOut);
  const lines = formatItemLines(shown, { now: new Date(), injected, isPinned: (it) => store.isPinned(it), pinnedLeftOut, conflicted });
  const what = here ? `${plural(items.length, 'item')} apply here (of ${all.length})` : plural(items.length, 'item');
  lines.push(
    memory.injecting
      ? `${what}; * = in [background] now (${injected.size}); the rest is recalled when relevant`
      : `${what}; injection is off (--no-memory)`,
  );
  const over = listedLeftOutLine(leftOut);
  if (over) lines.push(over);
  if (pages > 1)
    lines.push(`page ${page}/${pages}${page < pages ? ` — :memory list ${page + 1} for the next, :memory list --all for everything` : ''}`);
  lines.push(...team.lines);
  return { output: [...out, rows(lines.join('\n'))] };
}

/** A fresh load (hand edits, other shells, compaction) replaces what is injected. */
function inject(memory: MemorySession): CommandResult {
  const store = memory.store();
  const snap = store.reload(true);
  memory.reselect(true);
  const out = formatSkipped(basename(memory.path), snap.skipped).map(warn);
  for (const t of store.danglingTombstones())
    out.push(warn(`${basename(memory.path)}:${t.line}: tombstone ${t.id} names id ${t.target}, which is no item — it forgets nothing`));
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

async function plan(memory: MemorySession, text: string, lastPrompt: string | null, pageLines: number | undefined): Promise<CommandResult> {
  await memory.ready();
  const query = text || lastPrompt;
  const p = await memory.plan(query);
  const lines = formatPlan(p, { query, isPinned: (it) => memory.isPinned(it), maxLeftOut: Math.max(10, (pageLines ?? 30) - 10) });
  if (!memory.injecting) lines.push('memory is not sent this session (--no-memory)');
  return { output: [rows(lines.join('\n'))] };
}

async function search(memory: MemorySession, text: string): Promise<CommandResult> {
  if (!text) throw new UsageError('usage: :memory search TEXT');
  await memory.ready();
  const hits = await memory.search(text, 20);
  if (hits.length === 0) return { output: [info(`no memory item matches "${text}"`)] };
  return { output: [rows(formatSearch(hits, (it) => memory.isPinned(it)).join('\n'))] };
}

export const viewSubcommands: SubCommand<'memory' | 'ui' | 'chat'>[] = [
  {
    name: 'list',
    args: '[--here] [PAGE|--all]',
    help: 'active items, newest first: id, age, kind, text; * = in [background];\n--here: only those that apply in this directory; a screenful per page',
    run: async (ctx) => {
      await ctx.memory.ready();
      return list(ctx);
    },
  },
  {
    name: 'plan',
    args: '[TEXT]',
    help: 'what would be sent for TEXT (or the last prompt): [background], [recall] with scores,\nand every item left out with its reason (budget, scope, below threshold)',
    run: ({ memory, rest, chat, ui }) => plan(memory, rest, chat.lastPrompt(), ui.pageLines?.()),
  },
  {
    name: 'search',
    args: 'TEXT',
    help: 'items ranked for TEXT (any project), with ids and scores',
    run: ({ memory, rest }) => search(memory, rest),
  },
  {
    name: 'inject',
    help: 'reload memory.jsonl (after a hand edit) and report unreadable lines',
    run: async ({ memory }) => {
      await memory.ready();
      return inject(memory);
    },
  },
];
