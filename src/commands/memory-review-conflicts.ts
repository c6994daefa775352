/**
 * The first step of `:memory review` (and `aish memory review`): conflicts, where two or more
 * machines replaced one item (memory/review/conflicts.ts). Each is shown with the old text beside every
 * rival, numbered, and `keep which? [1/2/…/b/s]`: a number keeps that one and forgets the others in
 * one locked write; `b` keeps them all (remembered in the inbox, not asked again); `s` asks next time.
 */
import { findConflicts, provenance, stillOpen, type Conflict } from '../memory/review/conflicts';
import type { Inbox } from '../memory/review/inbox';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { uidOf } from '../memory/log/identity';
import { oneLine } from '../util/text';
import { withPart, type ReviewIO } from './memory-review-io';

export interface ConflictTally {
  /** Conflicts there were to walk. */
  seen: number;
  /** One rival kept, the others forgotten. */
  resolved: number;
  /** Every rival kept (`b`). */
  keptAll: number;
  skipped: number;
  /** Memory was written (a rival forgotten). */
  wrote: boolean;
  /** Nobody can answer any more (end of input): the rest of the review stops too. */
  stopped: boolean;
}

function describe(c: Conflict, n: number, total: number): string[] {
  const kind = c.old?.kind ?? c.rivals[0]!.kind;
  const lines = [`[conflict] ${n}/${total} (${kind}) edited in ${c.rivals.length} places:`];
  lines.push(c.old ? `  old #${c.old.id}: ${oneLine(c.old.content)}` : '  old: (no longer in this file)');
  c.rivals.forEach((it, i) => {
    const from = oneLine(provenance(it), 80); // a label another machine wrote: no control characters reach the terminal
    lines.push(`  ${i + 1}. #${it.id}: ${oneLine(it.content)}${from ? `  — ${from}` : ''}`);
  });
  return lines;
}

type Choice = { act: 'one'; index: number } | { act: 'all' } | { act: 'skip' } | { act: 'stop' };

async function choose(c: Conflict, io: ReviewIO): Promise<Choice> {
  const numbers = c.rivals.map((_, i) => String(i + 1)).join('/');
  const a = await io.ask(`keep which? [${numbers}/b/s] `);
  if (a === null) return { act: 'stop' };
  const w = a.trim().toLowerCase();
  if (w === 'b' || w === 'both' || w === 'all') return { act: 'all' };
  const n = /^\d+$/.test(w) ? Number(w) : 0;
  return n >= 1 && n <= c.rivals.length ? { act: 'one', index: n - 1 } : { act: 'skip' };
}

/** Keep `keep`, forget the other rivals: one locked write. */
async function keepOne(store: MemoryStore, c: Conflict, keep: MemoryItem): Promise<string> {
  const gone = await store.forgetMany(c.rivals.filter((it) => it !== keep).map((it) => it.id));
  return gone.length ? `kept #${keep.id}, forgot ${gone.map((it) => `#${it.id}`).join(', ')}` : `kept #${keep.id}`;
}

export async function reviewConflicts(store: MemoryStore, inbox: Inbox, io: ReviewIO): Promise<ConflictTally> {
  const tally: ConflictTally = { seen: 0, resolved: 0, keptAll: 0, skipped: 0, wrote: false, stopped: false };
  store.reload();
  const list = findConflicts(store, inbox);
  tally.seen = list.length;
  for (const [i, listed] of list.entries()) {
    // Answered meanwhile: in another aish, or by a sync that brought a rival's tombstone.
    store.reload();
    const c = stillOpen(store, listed, inbox);
    if (!c) {
      io.print(`[conflict] ${i + 1}/${list.length} was resolved elsewhere — next`);
      continue;
    }
    for (const l of describe(c, i + 1, list.length)) io.print(l);
    const a = await choose(c, io);
    if (a.act === 'stop') {
      tally.stopped = true;
      break;
    }
    if (a.act === 'skip') {
      tally.skipped++;
      io.print('skipped — asked again next review');
    } else if (a.act === 'all') {
      await inbox.keepAll(c.replaced, c.rivals.map(uidOf));
      tally.keptAll++;
      io.print(`kept all ${c.rivals.length}`);
    } else {
      io.print(await keepOne(store, c, c.rivals[a.index]!));
      tally.resolved++;
      tally.wrote = true;
    }
  }
  return tally;
}

/** The review's closing line with the conflicts' part in front (unchanged when there were none). */
export function withConflicts<R extends { wrote: boolean; summary: string }>(c: ConflictTally, r: R): R {
  return c.seen === 0 ? r : withPart(`conflicts resolved ${c.resolved}, kept all ${c.keptAll}, skipped ${c.skipped}`, c.wrote, r);
}
