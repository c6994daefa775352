/** :remember TEXT and :memory add|list|forget|edit|clear|inject|summarize|compact|path (SPEC §4). */
import { basename } from 'node:path';
import type { Engine } from '../engine/engine';
import { confirm } from '../engine/host';
import { summarizeSession } from '../engine/summarize-flow';
import { formatItemLines, formatSkipped } from '../memory/format';
import { MEMORY_KINDS, isMemoryKind, parseMemoryId, type MemoryKind } from '../memory/types';
import { UsageError } from '../util/errors';
import { info, warn, type CommandResult, type MetaCommand } from './types';

const SUBCOMMANDS = ['add', 'list', 'forget', 'edit', 'clear', 'inject', 'summarize', 'compact', 'path'] as const;
const USAGE = `usage: :memory ${SUBCOMMANDS.join('|')} — see :help`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function kindOf(raw: string | undefined): MemoryKind {
  if (!raw || !isMemoryKind(raw)) throw new UsageError(`${raw ? `unknown kind "${raw}"` : 'missing kind'} — use :memory add fact|pref|context TEXT`);
  return raw;
}

function idOf(raw: string | undefined, sub: string): number {
  const id = parseMemoryId(raw);
  if (id === undefined) throw new UsageError(`usage: :memory ${sub} ID${sub === 'edit' ? ' TEXT' : ''} (ids are shown by :memory list)`);
  return id;
}

async function add(engine: Engine, kind: MemoryKind, text: string): Promise<CommandResult> {
  if (!text.trim()) throw new UsageError('nothing to remember — usage: :remember TEXT');
  const item = await engine.store().add(kind, text.trim());
  engine.reselectMemory();
  const live = engine.conversation.memoryItems.some((i) => i.id === item.id);
  return { output: [info(`memory: added ${item.id} (${item.kind})${live ? '' : engine.injecting ? ' — not injected: over injectMaxChars' : ''}`)] };
}

/** `:memory list [PAGE|--all]`: a screenful at a time in the REPL, so 100k items do not flood it. */
function list(engine: Engine, arg: string | undefined): CommandResult {
  const store = engine.store();
  store.reload();
  const items = store.items();
  const out = [];
  if (store.skipped.length) out.push(warn(`${basename(engine.paths.memoryPath)}: ${plural(store.skipped.length, 'unreadable line')} (see :memory inject)`));
  if (items.length === 0) return { output: [...out, info('memory is empty — add with :remember TEXT')] };
  if (arg !== undefined && arg !== '--all' && !/^\d+$/.test(arg)) throw new UsageError('usage: :memory list [PAGE | --all]');
  const per = arg === '--all' ? undefined : engine.host.pageLines?.();
  const pages = per ? Math.ceil(items.length / per) : 1;
  const page = Math.min(Math.max(1, Number(arg ?? '1') || 1), pages);
  const shown = per ? items.slice((page - 1) * per, page * per) : items;
  const injected = new Set(engine.conversation.memoryItems.map((i) => i.id));
  const lines = formatItemLines(shown, { now: new Date(), injected });
  lines.push(engine.injecting ? `${plural(items.length, 'item')}; * = in the system prompt now (${injected.size})` : `${plural(items.length, 'item')}; injection is off (--no-memory)`);
  if (pages > 1) lines.push(`page ${page}/${pages}${page < pages ? ` — :memory list ${page + 1} for the next, :memory list --all for everything` : ''}`);
  return { output: [...out, info(lines.join('\n'))] };
}

async function forget(engine: Engine, id: number): Promise<CommandResult> {
  const r = await engine.store().forget(id);
  if (!r.ok) {
    return { output: [info(r.reason === 'already-forgotten' ? `memory ${id} is already forgotten; nothing written` : `no memory item ${id}; nothing written (see :memory list)`)] };
  }
  engine.reselectMemory();
  return { output: [info(`memory: forgot ${id}`)] };
}

async function edit(engine: Engine, id: number, text: string): Promise<CommandResult> {
  if (!text.trim()) throw new UsageError('usage: :memory edit ID TEXT');
  const r = await engine.store().edit(id, text.trim());
  if (!r.ok) return { output: [info(r.reason === 'already-forgotten' ? `memory ${id} is forgotten; nothing written` : `no memory item ${id}; nothing written (see :memory list)`)] };
  engine.reselectMemory();
  return { output: [info(`memory: replaced ${id} with ${r.item.id}`)] };
}

async function clear(engine: Engine): Promise<CommandResult> {
  const store = engine.store();
  store.reload();
  const n = store.items().length;
  if (n === 0) return { output: [info('memory is already empty; nothing written')] };
  if (!(await confirm(engine.host, `forget all ${plural(n, 'memory item')}?`))) return { output: [info(`kept all ${plural(n, 'item')}`)] };
  const gone = await store.clear();
  engine.reselectMemory();
  return { output: [info(`memory: forgot ${plural(gone.length, 'item')}`)] };
}

function inject(engine: Engine): CommandResult {
  const store = engine.store();
  const snap = store.reload(true); // a fresh load: hand edits, other shells, compaction
  engine.reselectMemory();
  const label = basename(engine.paths.memoryPath);
  const out = formatSkipped(label, snap.skipped).map(warn);
  const n = engine.conversation.memoryItems.length;
  const budget = engine.config.memory ? engine.config.memory.injectMaxChars : 0;
  out.push(
    info(
      engine.injecting
        ? `memory: injected ${n} of ${plural(snap.items.length, 'item')} (budget ${budget} chars)${snap.skipped.length ? `; ${plural(snap.skipped.length, 'line')} skipped` : ''}`
        : `memory: ${plural(snap.items.length, 'item')} loaded; injection is off (--no-memory)`,
    ),
  );
  return { output: out };
}

async function compact(engine: Engine): Promise<CommandResult> {
  const r = await engine.store().compact();
  engine.reselectMemory();
  return {
    output: [
      info(
        `memory: compacted — kept ${plural(r.kept, 'item')}, dropped ${plural(r.removed, 'forgotten record')}` +
          (r.rejected ? `, moved ${plural(r.rejected, 'unreadable line')} to ${basename(r.rejectedPath ?? '')}` : ''),
      ),
    ],
  };
}

export const memoryCommands: MetaCommand[] = [
  {
    name: 'remember',
    args: 'TEXT',
    summary: 'remember a fact across sessions (:memory add fact TEXT)',
    run: async ({ engine, rest }) => {
      await engine.memoryReadyPromise();
      return add(engine, 'fact', rest);
    },
  },
  {
    name: 'memory',
    args: 'add|list|forget|edit|clear|inject|summarize|compact|path',
    summary: 'manage cross-session memory (add KIND TEXT, forget ID, edit ID TEXT, …)',
    help: [
      '  :memory add KIND TEXT   remember TEXT; KIND is fact, pref or context (:remember TEXT = add fact)',
      '  :memory list [PAGE|--all]  active items, newest first: id, age, kind, text; * = in the system prompt;',
      '                         a screenful per page in the REPL',
      '  :memory forget ID       forget one item (a tombstone is appended; nothing is rewritten)',
      '  :memory edit ID TEXT    replace an item\'s text (new item + tombstone, one locked write)',
      '  :memory clear           forget every item, after a [y/N] question (Enter keeps them)',
      '  :memory inject          reload memory.jsonl (after a hand edit) and report unreadable lines',
      '  :memory summarize       propose items from this session; keep? [y/N/edit] for each',
      '  :memory compact         rewrite the file without forgotten items and tombstones',
      '  :memory path            where memory.jsonl is',
    ].join('\n'),
    complete: (engine, argv, word) => {
      if (argv.length === 0) return [...SUBCOMMANDS];
      if (argv.length === 1 && argv[0] === 'add') return [...MEMORY_KINDS];
      if (argv.length === 1 && (argv[0] === 'forget' || argv[0] === 'edit')) {
        try {
          return engine.store().items().map((i) => String(i.id)).filter((id) => id.startsWith(word));
        } catch {
          return [];
        }
      }
      return [];
    },
    run: async ({ engine, argv, rest }) => {
      await engine.memoryReadyPromise();
      const sub = argv[0];
      // The text after the first n words, its own spacing kept.
      const after = (n: number) => {
        let r = rest;
        for (let i = 0; i < n; i++) r = r.replace(/^\S+\s*/, '');
        return r;
      };
      switch (sub) {
        case 'add':
          return add(engine, kindOf(argv[1]), after(2));
        case 'list':
        case undefined:
          return list(engine, argv[1]);
        case 'forget':
          return forget(engine, idOf(argv[1], 'forget'));
        case 'edit':
          return edit(engine, idOf(argv[1], 'edit'), after(2));
        case 'clear':
          return clear(engine);
        case 'inject':
          return inject(engine);
        case 'summarize':
          return summarizeSession(engine);
        case 'compact':
          return compact(engine);
        case 'path':
          return { output: [info(engine.paths.memoryPath)] };
        default:
          throw new UsageError(`unknown :memory subcommand "${sub}" — ${USAGE}`);
      }
    },
  },
];
