/** `aish memory …`: the memory store without the REPL, same store, rules and words as `:memory`. */
import { basename } from 'node:path';
import type { Setup } from '../../config/setup';
import { formatItemLines, formatSkipped } from '../../memory/format';
import { lockTimingFromEnv } from '../../memory/lock';
import { addItem, clearAll, compactFile, editItem, forgetItem, parseId, parseKind, parseText, type OpResult } from '../../memory/ops';
import { selectForInjection } from '../../memory/select';
import { MemoryStore } from '../../memory/store';
import { unreadableCount } from '../../memory/types';
import { AishError, UsageError } from '../../util/errors';
import { plural } from '../../util/time';
import { out, warn } from './output';

const HINT = 'aish memory list';

function openStore(s: Setup): MemoryStore {
  return MemoryStore.open(s.paths.memoryPath, { lock: lockTimingFromEnv(), notice: (t) => warn(`warning: ${t}`) });
}

/** Every skipped line, one per stderr line: `memory.jsonl:LINE: reason`. */
function reportSkipped(s: Setup, store: MemoryStore): void {
  for (const l of formatSkipped(basename(s.paths.memoryPath), store.skipped)) warn(l);
}

/** For write commands: one line, so scripts are not flooded, pointing at the full report. */
function summariseSkipped(s: Setup, store: MemoryStore): void {
  const n = unreadableCount(store.skipped);
  if (n) warn(`warning: ${basename(s.paths.memoryPath)} has ${plural(n, 'unreadable line')} (see ${HINT})`);
}

/** A refusal is a runtime failure (exit 1); anything else goes to stdout. */
function show(r: OpResult): void {
  if (!r.ok) throw new AishError(r.text);
  out(r.text);
}

export async function memoryList(s: Setup, opts: { json?: boolean }): Promise<void> {
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
  // Rows are cut to the terminal's width; piped output stays whole (and skips loading the width code).
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  const fit = width ? { width, cut: (await import('../../util/width')).truncateColumns } : undefined;
  for (const l of formatItemLines(items, { now: new Date(), injected, ...(fit && { fit }) })) out(l);
  out(
    s.config.memory
      ? `${plural(items.length, 'item')}; * = injected at start (${injected.size}, within ${budget} chars)`
      : `${plural(items.length, 'item')}; memory injection is off in the config`,
  );
}

export async function memoryAdd(s: Setup, kind: string, words: string[]): Promise<void> {
  const k = parseKind(kind);
  const text = parseText(words.join(' '), 'give the text after the kind');
  const store = openStore(s);
  summariseSkipped(s, store);
  show(await addItem(store, k, text));
}

export async function memoryForget(s: Setup, rawId: string): Promise<void> {
  const id = parseId(rawId, HINT);
  const store = openStore(s);
  summariseSkipped(s, store);
  show(await forgetItem(store, id, HINT));
}

export async function memoryEdit(s: Setup, rawId: string, words: string[]): Promise<void> {
  const id = parseId(rawId, HINT);
  const text = parseText(words.join(' '), 'give the new text after the id');
  const store = openStore(s);
  summariseSkipped(s, store);
  show(await editItem(store, id, text, HINT));
}

export async function memoryClear(s: Setup, opts: { yes?: boolean }): Promise<void> {
  const store = openStore(s);
  reportSkipped(s, store);
  show(
    await clearAll(store, async (n) => {
      if (!opts.yes) throw new UsageError(`this would forget all ${plural(n, 'memory item')} — run again with --yes to confirm`);
      return true;
    }),
  );
}

export async function memoryCompact(s: Setup): Promise<void> {
  const store = openStore(s);
  reportSkipped(s, store);
  show(await compactFile(store));
}

export function memoryPath(s: Setup): void {
  out(s.paths.memoryPath);
}
