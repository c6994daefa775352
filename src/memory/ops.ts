/**
 * Memory operations, written once: the REPL's `:memory …` and the command line's `aish memory …`
 * run them (their arguments parsed in commands/memory-door.ts) and only present the result — the
 * same words in both, with `hint` naming the listing command of the front end that asked.
 */
import { basename } from 'node:path';
import { tildify } from '../util/paths';
import { plural } from '../util/time';
import { redactSecrets } from '../util/secrets/redact';
import type { AddOptions, ForgetResult } from './log/records';
import { splitKeys } from './review/summarize';
import type { MemoryStore } from './store';
import { keepingSyncRecords } from './sync/stage-now';
import type { MemoryItem, MemoryKind } from './types';

/** The outcome of an operation, as one sentence. */
export interface OpResult {
  text: string;
  /** false: the request could not be done (e.g. the id is not active); nothing was written. */
  ok: boolean;
  /** Something was written to memory.jsonl. */
  changed: boolean;
}

/** How a front end names its listing command in messages: `:memory list` or `aish memory list`. */
export type ListHint = string;

const notActive = (r: Extract<ForgetResult, { ok: false }>, hint: ListHint): OpResult => ({
  ok: false,
  changed: false,
  text:
    r.reason === 'already-forgotten'
      ? `memory ${r.id} is already forgotten; nothing written`
      : `no memory item ${r.id}; nothing written (see ${hint})`,
});

/** Secrets never reach memory.jsonl: redacted on the way in, and the result says what was. */
export function redacted(text: string): { text: string; note: string } {
  const r = redactSecrets(text);
  return { text: r.text, note: r.found.length ? ` — redacted: ${[...new Set(r.found)].join(', ')}` : '' };
}

/** Add an item, unless an active item in the same scope already says the same: then nothing is written. */
export async function addItem(
  store: MemoryStore,
  kind: MemoryKind,
  text: string,
  opts: AddOptions = {},
): Promise<OpResult & { item: MemoryItem }> {
  const safe = redacted(text);
  const r = await store.addUnique(kind, safe.text, opts);
  if (!r.added) return { ok: true, changed: false, text: `already remembered as #${r.item.id}; nothing written`, item: r.item };
  return added(r.item, safe.note);
}

export function added(item: MemoryItem, note: string): OpResult & { item: MemoryItem } {
  const where = item.scope ? ` for ${tildify(item.scope)}` : '';
  return { ok: true, changed: true, text: `added ${item.id} (${item.kind})${where}${privateNote(item)}${note}`, item };
}

/** What a confirmation line says of a private item. */
export function privateNote(item: MemoryItem): string {
  return item.private ? ', private — never synced' : '';
}

export async function pinItem(store: MemoryStore, id: number, on: boolean, hint: ListHint): Promise<OpResult> {
  const r = await store.setPinned(id, on);
  if (!r.ok) return notActive(r, hint);
  const verb = on ? 'pinned' : 'unpinned';
  return r.changed
    ? { ok: true, changed: true, text: `${verb} ${id}` }
    : { ok: true, changed: false, text: `memory ${id} is already ${verb}; nothing written` };
}

export async function forgetItem(store: MemoryStore, id: number, hint: ListHint): Promise<OpResult> {
  const r = await store.forget(id);
  return r.ok ? { ok: true, changed: true, text: `forgot ${id}` } : notActive(r, hint);
}

/**
 * `TEXT`, `TEXT (keys: word, a phrase)` or `(keys: …)` alone: the new text (alone: the old one
 * kept), and the keys — the search words recall finds the item by (absent: the old ones kept).
 */
export async function editItem(store: MemoryStore, id: number, text: string, hint: ListHint): Promise<OpResult> {
  const split = splitKeys(text);
  const safe = redacted(split.content);
  const keys = split.keys?.map((k) => redacted(k).text);
  let content = safe.text;
  if (!content) {
    // Keys alone: the text as it is now (were it edited meanwhile, the id is no longer active and edit says so).
    store.reload();
    content = store.get(id)?.content ?? text;
  }
  const r = await store.edit(id, content, keys ? { keys } : {});
  if (!r.ok) return notActive(r, hint);
  const shown = keys ? `, keys: ${keys.join(', ')}` : '';
  return { ok: true, changed: true, text: `replaced ${id} with ${r.item.id} (${r.item.kind})${shown}${privateNote(r.item)}${safe.note}` };
}

/** Forget every active item, after `confirm(count)` says yes (it may also throw to refuse). */
export async function clearAll(store: MemoryStore, confirm: (count: number) => Promise<boolean>): Promise<OpResult> {
  store.reload();
  const n = store.items().length;
  if (n === 0) return { ok: true, changed: false, text: 'memory is already empty; nothing written' };
  if (!(await confirm(n))) return { ok: true, changed: false, text: `kept all ${plural(n, 'item')}` };
  const gone = await store.clear();
  return { ok: true, changed: true, text: `forgot ${plural(gone.length, 'item')}` };
}

export async function compactFile(store: MemoryStore): Promise<OpResult> {
  // With sync set up, what it has not sent yet goes to its outbox before the rewrite drops it.
  const r = await store.compact(keepingSyncRecords);
  const moved = r.rejected ? `, moved ${plural(r.rejected, 'unreadable line')} to ${r.rejectedPath}` : '';
  return {
    ok: true,
    changed: true,
    text: `compacted ${basename(store.path)}: kept ${plural(r.kept, 'item')}, dropped ${plural(r.removed, 'forgotten record')}${moved}`,
  };
}
