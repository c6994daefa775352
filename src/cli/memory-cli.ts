/** `aish memory …`: the memory store without the REPL (SPEC §1), same store and rules. */
import { basename } from 'node:path';
import { lockTimingFromEnv, type Setup } from '../app/setup';
import { formatItemLines, formatSkipped } from '../memory/format';
import { selectForInjection } from '../memory/select';
import { MemoryStore } from '../memory/store';
import { isMemoryKind, parseMemoryId, type MemoryKind } from '../memory/types';
import { AishError, UsageError } from '../util/errors';
import { out, warn } from './output';

function openStore(s: Setup): MemoryStore {
  return MemoryStore.open(s.paths.memoryPath, { lock: lockTimingFromEnv() });
}

function label(s: Setup): string {
  return basename(s.paths.memoryPath);
}

/** Every skipped line, one per stderr line: `memory.jsonl:LINE: reason`. */
function reportSkipped(s: Setup, store: MemoryStore): void {
  for (const l of formatSkipped(label(s), store.skipped)) warn(l);
}

/** For write commands: one line, so scripts are not flooded, pointing at the full report. */
function summariseSkipped(s: Setup, store: MemoryStore): void {
  const n = store.skipped.length;
  if (n) warn(`warning: ${label(s)} has ${n} unreadable line${n === 1 ? '' : 's'} (see aish memory list)`);
}

export function parseKind(kind: string): MemoryKind {
  if (!isMemoryKind(kind)) throw new UsageError(`unknown kind "${kind}" — use fact, pref or context`);
  return kind;
}

export function parseId(raw: string): number {
  const id = parseMemoryId(raw);
  if (id === undefined) throw new UsageError(`"${raw}" is not a memory id — ids are whole numbers ≥ 1 (see aish memory list)`);
  return id;
}

export function parseText(words: string[]): string {
  const text = words.join(' ').trim();
  if (!text) throw new UsageError('nothing to remember — give the text after the kind');
  return text;
}

export function memoryList(s: Setup, opts: { json?: boolean }): void {
  const store = openStore(s);
  reportSkipped(s, store);
  const items = store.items();
  if (opts.json) {
    out(JSON.stringify(items, null, 2));
    return;
  }
  if (items.length === 0) {
    out(`no memory items in ${s.paths.memoryPath} — add one with: aish memory add fact "…"`);
    return;
  }
  const budget = s.config.memory ? s.config.memory.injectMaxChars : 0;
  const injected = new Set(selectForInjection(items, budget).map((i) => i.id));
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  for (const l of formatItemLines(items, { now: new Date(), injected, ...(width && { width }) })) out(l);
  out(
    s.config.memory
      ? `${items.length} item${items.length === 1 ? '' : 's'}; * = injected at start (${injected.size}, within ${budget} chars)`
      : `${items.length} item${items.length === 1 ? '' : 's'}; memory injection is off in the config`,
  );
}

export async function memoryAdd(s: Setup, kind: string, words: string[]): Promise<void> {
  const k = parseKind(kind);
  const text = parseText(words);
  const store = openStore(s);
  summariseSkipped(s, store);
  const item = await store.add(k, text);
  out(`added ${item.id} (${item.kind})`);
}

export async function memoryForget(s: Setup, rawId: string): Promise<void> {
  const id = parseId(rawId);
  const store = openStore(s);
  summariseSkipped(s, store);
  const r = await store.forget(id);
  if (!r.ok) {
    throw new AishError(
      r.reason === 'already-forgotten'
        ? `memory ${id} is already forgotten; nothing written`
        : `no memory item ${id}; nothing written (see aish memory list)`,
    );
  }
  out(`forgot ${id}`);
}

export async function memoryEdit(s: Setup, rawId: string, words: string[]): Promise<void> {
  const id = parseId(rawId);
  const text = parseText(words);
  const store = openStore(s);
  summariseSkipped(s, store);
  const r = await store.edit(id, text);
  if (!r.ok) {
    throw new AishError(
      r.reason === 'already-forgotten'
        ? `memory ${id} is forgotten; nothing written`
        : `no memory item ${id}; nothing written (see aish memory list)`,
    );
  }
  out(`replaced ${id} with ${r.item.id} (${r.item.kind})`);
}

export async function memoryClear(s: Setup, opts: { yes?: boolean }): Promise<void> {
  const store = openStore(s);
  reportSkipped(s, store);
  const n = store.items().length;
  if (n === 0) {
    out('memory is already empty; nothing written');
    return;
  }
  if (!opts.yes) throw new UsageError(`this would forget all ${n} memory items — run again with --yes to confirm`);
  const gone = await store.clear();
  out(`forgot ${gone.length} item${gone.length === 1 ? '' : 's'}`);
}

export async function memoryCompact(s: Setup): Promise<void> {
  const store = openStore(s);
  reportSkipped(s, store);
  const r = await store.compact();
  out(
    `compacted ${label(s)}: kept ${r.kept} item${r.kept === 1 ? '' : 's'}, dropped ${r.removed} forgotten record${r.removed === 1 ? '' : 's'}` +
      (r.rejected ? `, moved ${r.rejected} unreadable line${r.rejected === 1 ? '' : 's'} to ${r.rejectedPath}` : ''),
  );
}

export function memoryPath(s: Setup): void {
  out(s.paths.memoryPath);
}
