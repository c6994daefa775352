/** `aish memory …`: the memory store without the REPL, same store, rules and words as `:memory`. */
import { basename } from 'node:path';
import type { Setup } from '../../config/setup';
import { conflictedIds, findConflicts, lazyKept } from '../../memory/review/conflicts';
import { formatItemLines, formatSkipped } from '../../memory/format';
import { Inbox } from '../../memory/review/inbox';
import { formatPlan, formatSearch, searchJson } from '../../memory/recall/format-plan';
import { clearAll, compactFile, editItem, forgetItem, parseId, parseText, pinItem, type OpResult } from '../../memory/ops';
import { listedLeftOutLine, pinReport } from '../../memory/background/pins-left-out';
import { planJson } from '../../memory/recall/plan';
import { scopeFilter } from '../../memory/project/project';
import { useConfirmedProjects } from '../../memory/project/project-trust';
import { memoryBudget } from '../../memory/background/budget';
import { indexBackground } from '../../memory/index/background';
import { MemoryIndex } from '../../memory/index/memory-index';
import { MemorySession } from '../../memory/session';
import { MemoryStore } from '../../memory/store';
import { latestSession, loadSession } from '../../sessions/sessions';
import { unreadableCount, type MemoryItem } from '../../memory/types';
import { AishError, UsageError } from '../../util/errors';
import { plural } from '../../util/time';
import { HINT, unreadableWarning } from './memory-add';
import { memoryOn, openStore, storeOptions } from './memory-store';
import { listTeam } from './memory-team';
import { out, warn } from './output';

/** How many items left out `aish memory plan` names (the rest are counted). */
const LEFT_OUT_SHOWN = 50;

/** Every skipped line, one per stderr line: `memory.jsonl:LINE: reason`. */
function reportSkipped(s: Setup, store: MemoryStore): void {
  for (const l of formatSkipped(basename(s.paths.memoryPath), store.skipped)) warn(l);
}

/** For write commands: one line, so scripts are not flooded, pointing at the full report. */
function summariseSkipped(s: Setup, store: MemoryStore): void {
  const n = unreadableCount(store.skipped);
  if (n) warn(unreadableWarning(s, n));
}

/** A refusal is a runtime failure (exit 1); anything else goes to stdout. */
function show(r: OpResult): void {
  if (!r.ok) throw new AishError(r.text);
  out(r.text);
}

export async function memoryList(s: Setup, opts: { json?: boolean; here?: boolean }): Promise<void> {
  if (opts.json) return (await import('./memory-json')).memoryListJson(s, opts.here === true);
  memoryOn(s);
  useConfirmedProjects(s.paths.memoryPath, storeOptions());
  // What is in [background] here: the index's choice, as the REPL makes it. Asked before the store
  // is read, so the full read of an index build is garbage before the listing's own is made.
  const budget = memoryBudget(s.config).background;
  const ix = new MemoryIndex(s.paths.memoryPath);
  const bg = ix.read((x) => indexBackground(x, budget, process.cwd()));
  ix.close();
  const store = openStore(s);
  reportSkipped(s, store);
  const applies = scopeFilter(process.cwd());
  const all = store.items();
  const items = opts.here ? all.filter(applies) : all;
  if (items.length === 0) {
    out(`no memory items in ${s.paths.memoryPath} — add one with: aish memory add fact "…"`);
    return listTeam(s);
  }
  const injected = new Set(bg.items.map((it) => it.id));
  const pinnedLeftOut = new Set(bg.pinnedLeftOut);
  // Rows are cut to the terminal's width; piped output stays whole (and skips loading the width code).
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  const fit = width ? { width, cut: (await import('../../util/width')).truncateColumns } : undefined;
  // The inbox is read only when there is a conflict: it holds those the user chose to keep whole.
  const kept = lazyKept(() => Inbox.open(s.paths.memoryPath));
  const conflicted = conflictedIds(findConflicts(store, kept));
  const shape = {
    now: new Date(),
    injected,
    isPinned: (it: MemoryItem) => store.isPinned(it),
    pinnedLeftOut,
    conflicted,
    ...(fit && { fit }),
  };
  for (const l of formatItemLines(items, shape)) out(l);
  out(
    `${plural(items.length, 'item')}${opts.here ? ` apply here (of ${all.length})` : ''}; * = in [background] here (${injected.size}, within ${budget} chars); the rest is recalled when relevant`,
  );
  const over = listedLeftOutLine(bg.pinnedLeftOut);
  if (over) out(over);
  listTeam(s);
}

export async function memoryPin(s: Setup, rawId: string, on: boolean): Promise<void> {
  memoryOn(s);
  const id = parseId(rawId, HINT);
  // One store for the pin and the [background] checks around it.
  const session = headless(s);
  const store = session.store();
  summariseSkipped(s, store);
  const before = session.background().pinnedLeftOut;
  show(await pinItem(store, id, on, HINT));
  for (const n of pinReport(id, on, before, session.background(), session.budget))
    if (n.kind === 'warn') warn(`warning: ${n.text}`);
    else out(n.text.replace(/^memory: /, ''));
}

/** The REPL's memory view, without the REPL: plan and search rank exactly as a turn would. */
function headless(s: Setup): MemorySession {
  memoryOn(s);
  return new MemorySession(
    s.config,
    s.paths.memoryPath,
    { cwd: () => process.cwd() },
    { notice: (_k, t) => warn(`warning: ${t}`), changed: () => {} },
  );
}

/** The last prompt of the latest session, for `plan` without TEXT. */
function lastLoggedPrompt(s: Setup): string | null {
  const latest = latestSession(s.paths.sessionsDir);
  if (!latest) return null;
  const turns = loadSession(latest.path).turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.role === 'user' && typeof t.content === 'string' && t.meta === undefined) return t.content;
  }
  return null;
}

export async function memoryPlan(s: Setup, words: string[], opts: { json?: boolean }): Promise<void> {
  const session = headless(s);
  const query = words.join(' ').trim() || lastLoggedPrompt(s);
  const plan = await session.plan(query);
  const n = session.counts().unreadable;
  if (n) warn(unreadableWarning(s, n));
  const isPinned = (it: MemoryItem) => session.isPinned(it);
  if (opts.json) out(JSON.stringify(planJson(plan, isPinned), null, 2));
  // Every item left out is listed by --json; text shows the first screenful (reading each one's line).
  else for (const l of formatPlan(plan, { query, isPinned, maxLeftOut: LEFT_OUT_SHOWN })) out(l);
}

export async function memorySearch(s: Setup, words: string[], opts: { json?: boolean; limit?: string }): Promise<void> {
  const text = words.join(' ').trim();
  const limit = opts.limit === undefined ? 20 : Number(opts.limit);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number ≥ 1 (got ${opts.limit})`);
  const session = headless(s);
  const hits = await session.search(text, limit);
  const n = session.counts().unreadable;
  if (n) warn(unreadableWarning(s, n));
  const isPinned = (it: MemoryItem) => session.isPinned(it);
  if (opts.json) out(JSON.stringify(searchJson(hits, isPinned), null, 2));
  else if (hits.length === 0) out(`no memory item matches "${text}"`);
  else for (const l of formatSearch(hits, isPinned)) out(l);
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
