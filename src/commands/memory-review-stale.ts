/**
 * `:memory review --stale`: old items nobody recalls, or that a newer item repeats or updates
 * (memory/review/stale.ts), oldest first, each `keep? [y/n/e/s/q]`. Keep writes the item again as
 * an edit does (same text, `confirmed` stamped, pin and scope carried, the old one forgotten in the
 * same append), so the say-so travels wherever the item does; edit replaces the text; forget
 * forgets it. Talks through the same narrow ask/print pair as the inbox walk.
 */
import { shownField } from '../memory/format';
import { editItem } from '../memory/ops';
import { originOf } from '../memory/origin';
import { readRecallUse } from '../memory/review/recall-use';
import { findStale, type StaleItem } from '../memory/review/stale';
import type { MemoryStore } from '../memory/store';
import { tildify } from '../util/paths';
import { formatAge } from '../util/time';
import { oneLine } from '../util/text';
import { choiceOf, type ReviewIO } from './memory-review-io';

export interface StaleTally {
  kept: number;
  edited: number;
  forgot: number;
  skipped: number;
  /** Something was written to memory. */
  wrote: boolean;
  /** The closing line. */
  summary: string;
}

/** What the list and the walk say when nothing is stale. */
export const NOTHING_STALE = 'nothing stale: every item over 90 days old is pinned, recalled lately, or not updated since';

/** `#12 (fact) text  [project ~/shop]  — 5 months old, never recalled, updated by #40`. */
export function staleLine(s: StaleItem, now: Date): string {
  const where = s.item.scope ? `  [project ${shownField(tildify(s.item.scope))}]` : '';
  const why = [s.age];
  if (s.unused)
    why.push(s.recalled === undefined ? 'never recalled' : `last recalled ${formatAge(new Date(s.recalled).toISOString(), now)} ago`);
  if (s.by) why.push(`${s.by.how} by #${s.by.item.id}`);
  return `#${s.item.id} (${s.item.kind}) ${oneLine(s.item.content)}${where}  — ${why.join(', ')}`;
}

/** The stale items of `store` now (read again first), oldest first. */
export function staleItems(store: MemoryStore, now: Date): StaleItem[] {
  const items = store.reload().items;
  return findStale(items, { now, isPinned: (it) => store.isPinned(it), recalled: readRecallUse(store.path) });
}

type Answer = { act: 'keep' | 'forget' | 'skip' | 'stop' } | { act: 'edit'; text: string };

async function answerFor(s: StaleItem, io: ReviewIO): Promise<Answer> {
  const a = choiceOf(await io.ask('keep? [y/n/e/s/q] '), ['yes', 'no', 'forget', 'quit', 'edit']);
  if (a === null || a === 'quit') return { act: 'stop' };
  if (a === 'yes') return { act: 'keep' };
  if (a === 'no' || a === 'forget') return { act: 'forget' };
  if (a !== 'edit') return { act: 'skip' };
  const edited = await io.ask('edit: ', { initial: s.item.content });
  if (edited === null) return { act: 'stop' };
  const text = edited.trim();
  if (!text) return { act: 'skip' };
  return text === s.item.content.trim() ? { act: 'keep' } : { act: 'edit', text };
}

/** Do it; the line to print and what to count. */
async function act(
  store: MemoryStore,
  s: StaleItem,
  a: Answer,
  now: () => Date,
): Promise<{ echo: string; count?: 'kept' | 'edited' | 'forgot' }> {
  const id = s.item.id;
  const gone = `#${id} was changed or forgotten meanwhile — nothing written`;
  if (a.act === 'keep') {
    // Its origin too (an edit takes the text as the user's own): kept as it is, it still came from where it came from.
    const r = await store.edit(id, s.item.content, { confirmed: now().toISOString(), from: originOf(s.item) });
    return r.ok ? { echo: `kept as #${r.item.id}, confirmed (was #${id})`, count: 'kept' } : { echo: gone };
  }
  if (a.act === 'forget') {
    const r = await store.forget(id);
    return r.ok ? { echo: `forgot #${id}`, count: 'forgot' } : { echo: gone };
  }
  if (a.act === 'edit') {
    const r = await editItem(store, id, a.text, ':memory list');
    return r.ok ? { echo: r.text, count: 'edited' } : { echo: gone };
  }
  return { echo: 'skipped' };
}

export async function reviewStale(store: MemoryStore, io: ReviewIO, now: () => Date = () => new Date()): Promise<StaleTally> {
  const tally = { kept: 0, edited: 0, forgot: 0, skipped: 0, wrote: false };
  const list = staleItems(store, now());
  if (list.length === 0) return { ...tally, summary: NOTHING_STALE };
  let left = list.length;
  for (const [i, s] of list.entries()) {
    const newer = s.by?.item;
    io.print(`[stale] ${i + 1}/${list.length} ${staleLine(s, now())}`);
    if (newer) io.print(`  newer #${newer.id} (${newer.kind}): ${oneLine(newer.content)}`);
    const a = await answerFor(s, io);
    if (a.act === 'stop') break;
    left--;
    if (a.act === 'skip') {
      tally.skipped++;
      io.print('skipped');
      continue;
    }
    const r = await act(store, s, a, now);
    if (r.count) {
      tally[r.count]++;
      tally.wrote = true;
    }
    io.print(r.echo);
  }
  const stillStale = left + tally.skipped;
  return {
    ...tally,
    summary: `[aish] stale review: kept ${tally.kept}, edited ${tally.edited}, forgot ${tally.forgot}, skipped ${tally.skipped}; ${stillStale} still stale`,
  };
}
