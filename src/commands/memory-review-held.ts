/**
 * The first step of `:memory review` (and `aish memory review`): what sync received but the guards
 * held (memory/sync/guard.ts) — forgets of items written here past the 7-day threshold, an edit of
 * an item written here (old beside new), a flood of new items. Each group: `accept? [y/n/s]`.
 */
import { heldGroups, settleHeld, type HeldGroup } from '../memory/sync/held-review';
import { uidOf } from '../memory/log/identity';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { oneLine } from '../util/text';
import { choiceOf, withPart, type ReviewIO } from './memory-review-io';

export interface HeldTally {
  seen: number;
  accepted: number;
  dropped: number;
  skipped: number;
  wrote: boolean;
  stopped: boolean;
}

const SHOWN = 5;

function describe(g: HeldGroup, byUid: ReadonlyMap<string, MemoryItem>, n: number, total: number): string[] {
  const from = oneLine(g.name, 60);
  const head = `[sync] ${n}/${total}`;
  const texts = (list: string[]) => [
    ...list.slice(0, SHOWN).map((t) => `  ${oneLine(t, 120)}`),
    ...(list.length > SHOWN ? [`  … and ${list.length - SHOWN} more`] : []),
  ];
  const items = g.records.flatMap((h) => ('content' in h.record ? [h.record.content] : []));
  if (g.why === 'edit') {
    const old = g.replaces ? byUid.get(g.replaces) : undefined;
    const lines = [`${head} ${from} changes an item written here:`];
    lines.push(old ? `  old #${old.id} (${old.kind}): ${oneLine(old.content)}` : '  old: (no longer here)');
    for (const t of items) lines.push(`  new: ${oneLine(t)}`);
    if (items.length === 0) lines.push('  new: (forgotten, with no replacement)');
    return lines;
  }
  if (g.why === 'flood') return [`${head} ${items.length} new items from ${from} at once:`, ...texts(items)];
  const targets = g.records.flatMap((h) => {
    const it = 'target_uid' in h.record ? byUid.get(h.record.target_uid) : undefined;
    return it ? [`#${it.id}: ${it.content}`] : [];
  });
  const verb = g.why === 'unpins' ? 'unpins' : 'forgets';
  return [`${head} ${from} ${verb} ${g.records.length} items written here:`, ...texts(targets)];
}

export async function reviewHeld(store: MemoryStore, io: ReviewIO): Promise<HeldTally> {
  const tally: HeldTally = { seen: 0, accepted: 0, dropped: 0, skipped: 0, wrote: false, stopped: false };
  const groups = heldGroups(store.path);
  tally.seen = groups.length;
  if (groups.length === 0) return tally;
  store.reload();
  const byUid = new Map(store.items().map((it) => [uidOf(it), it]));
  for (const [i, g] of groups.entries()) {
    for (const l of describe(g, byUid, i + 1, groups.length)) io.print(l);
    const a = choiceOf(await io.ask('accept? [y/n/s] '), ['yes', 'no']);
    if (a === null) {
      tally.stopped = true;
      break;
    }
    if (a === '') {
      tally.skipped++;
      io.print('skipped — still waiting');
      continue;
    }
    const accept = a === 'yes';
    if (!(await settleHeld(store.path, g.key, accept))) io.print('decided elsewhere meanwhile — nothing written');
    else if (accept) {
      tally.accepted++;
      tally.wrote = true;
      io.print('accepted');
    } else {
      tally.dropped++;
      io.print('dropped');
    }
  }
  if (tally.wrote) store.reload();
  return tally;
}

/** The review's closing line with the held part in front (unchanged when there was none). */
export function withHeld<R extends { wrote: boolean; summary: string }>(h: HeldTally, r: R): R {
  return h.seen === 0 ? r : withPart(`received accepted ${h.accepted}, dropped ${h.dropped}, skipped ${h.skipped}`, h.wrote, r);
}
