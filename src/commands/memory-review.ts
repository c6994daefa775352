/**
 * `:memory review` (and `aish memory review`): the inbox's pending candidates, oldest first, each
 * `keep? [y/n/e/s]`. Keeping writes the memory item and then the decision, both under the inbox
 * lock: a crash in between leaves the candidate pending (asked again; add's duplicate check keeps
 * memory clean) rather than decided with nothing written. The walk itself talks through a narrow ask/print pair,
 * so the REPL and the command line run the same code.
 */
import { lineWarnings } from '../util/line-warnings';
import { shownField } from '../memory/format';
import type { Inbox } from '../memory/review/inbox';
import type { InboxCandidate } from '../memory/review/inbox-types';
import { addItem } from '../memory/ops';
import { recordArrival, type ArrivalChange } from '../memory/receipts/receipts';
import { reviewConflicts, withConflicts } from './memory-review-conflicts';
import { reviewHeld, withHeld } from './memory-review-held';
import { redactSecrets } from '../util/secrets/redact';
import type { MemoryStore } from '../memory/store';
import type { MemoryItem } from '../memory/types';
import { oneLine } from '../util/text';
import { reviewTeam } from './memory-review-team';
import { choiceOf, type ReviewIO } from './memory-review-io';
import { reviewStale } from './memory-review-stale';
import { UsageError } from '../util/errors';
import { info, warn, type CommandServices, type SubCommand } from './types';

export interface ReviewResult {
  kept: number;
  dropped: number;
  skipped: number;
  /** Pending after the walk (others may have added or decided meanwhile). */
  waiting: number;
  /** Something was written to memory. */
  wrote: boolean;
  /** The closing line. */
  summary: string;
}

/** The candidate's line, and the old item beside the new text when keeping it would forget one. */
function describeCandidate(c: InboxCandidate, n: number, total: number, old: MemoryItem | undefined): string[] {
  const quote = c.source.quote ? `: "${oneLine(c.source.quote, 80)}"` : '';
  const dup = c.duplicate !== undefined ? `  (duplicates #${c.duplicate})` : '';
  const from = c.agent !== undefined ? `agent: ${shownField(c.agent)}` : `session ${shownField(c.source.session)}`;
  const what = c.forget !== undefined ? `forget #${c.forget}? reason: ${oneLine(c.content)}` : `(${c.kind}) ${oneLine(c.content)}`;
  const lines = [`[inbox] ${n}/${total} ${what}  — from ${from}${quote}${dup}`];
  if (old) {
    const label = `old #${old.id}`;
    lines.push(`  ${label} (${old.kind}): ${oneLine(old.content)}`, `  ${'new'.padEnd(label.length)} (${c.kind}): ${oneLine(c.content)}`);
  }
  return lines;
}

type Answer = { act: 'keep'; text: string } | { act: 'drop' } | { act: 'skip' } | { act: 'stop' };

async function answerFor(c: InboxCandidate, io: ReviewIO): Promise<Answer> {
  const a = choiceOf(await io.ask('keep? [y/n/e/s] '), ['yes', 'no', 'edit']);
  if (a === null) return { act: 'stop' };
  if (a === 'yes') return { act: 'keep', text: c.content };
  if (a === 'no') return { act: 'drop' };
  // A forget request has no text of its own to edit.
  if (a !== 'edit' || c.forget !== undefined) return { act: 'skip' };
  const edited = await io.ask('edit: ', { initial: c.content });
  if (edited === null) return { act: 'stop' };
  return edited.trim() ? { act: 'keep', text: edited.trim() } : { act: 'skip' };
}

/** An agent's proposal, once written, is an arrival: it gets a receipt (`:memory log`, `:memory undo`). */
async function arrived(store: MemoryStore, c: InboxCandidate, change: ArrivalChange, isPinned: () => boolean): Promise<void> {
  if (c.agent !== undefined) await recordArrival(store.path, `agent:${c.agent}`, change, isPinned);
}

/** Write the kept text to memory: forgetting the item it supersedes when that is still active. */
async function keep(store: MemoryStore, c: InboxCandidate, text: string): Promise<{ item: MemoryItem | undefined; echo: string }> {
  if (c.forget !== undefined) {
    const before = store.get(c.forget);
    const pinned = before !== undefined && store.isPinned(before);
    const f = await store.forget(c.forget);
    if (f.ok) await arrived(store, c, { forgot: [f.item] }, () => pinned);
    return { item: undefined, echo: f.ok ? `forgot #${c.forget}` : `#${c.forget} is already gone — nothing written` };
  }
  const opts = {
    source: c.agent !== undefined ? `agent:${c.agent}` : `session:${c.source.session}`,
    ...(c.agent !== undefined && { from: `agent:${c.agent}` }),
    ...(c.keys?.length && { keys: c.keys }),
    ...(c.scope !== undefined && { scope: c.scope }),
  };
  const old = c.supersedes !== undefined ? store.get(c.supersedes) : undefined;
  if (old) {
    const pinned = store.isPinned(old);
    const r = await store.supersede(old.id, c.kind, redactSecrets(text).text, opts);
    await arrived(store, c, r.replaced ? { replaced: [[r.replaced, r.item]] } : { added: [r.item] }, () => pinned);
    return { item: r.item, echo: r.replaced ? `kept as #${r.item.id}, forgot #${r.replaced.id}` : `kept as #${r.item.id}` };
  }
  const r = await addItem(store, c.kind, text, opts);
  if (r.changed) await arrived(store, c, { added: [r.item] }, () => false);
  return { item: r.item, echo: r.changed ? `kept as #${r.item.id}` : `kept — already remembered as #${r.item.id}` };
}

/** What sync held (memory-review-held.ts), then conflicts (memory-review-conflicts.ts), then the inbox's candidates. */
export async function reviewInbox(inbox: Inbox, store: MemoryStore, io: ReviewIO): Promise<ReviewResult> {
  const held = await reviewHeld(store, io);
  if (held.stopped) return withHeld(held, await reviewCandidates(inbox, store, io, true));
  const conflicts = await reviewConflicts(store, inbox, io);
  return withHeld(held, withConflicts(conflicts, await reviewCandidates(inbox, store, io, conflicts.stopped)));
}

async function reviewCandidates(inbox: Inbox, store: MemoryStore, io: ReviewIO, stopped: boolean): Promise<ReviewResult> {
  const pending = stopped ? [] : inbox.pending();
  const tally = { kept: 0, dropped: 0, skipped: 0, wrote: false };
  if (pending.length === 0) {
    const waiting = inbox.pendingCount();
    return { ...tally, waiting, summary: stopped ? `stopped; ${waiting} still waiting` : 'the inbox is empty' };
  }
  store.reload();
  for (const [i, c] of pending.entries()) {
    // Another aish may have reviewed it while we were asking about the ones before.
    if (inbox.decision(c.id)) {
      io.print(`[inbox] ${i + 1}/${pending.length} was decided in another aish — next`);
      continue;
    }
    const old = c.supersedes !== undefined ? store.get(c.supersedes) : undefined;
    for (const l of describeCandidate(c, i + 1, pending.length, old)) io.print(l);
    const a = await answerFor(c, io);
    if (a.act === 'stop') break;
    if (a.act === 'skip') {
      tally.skipped++;
      io.print('skipped — still in the inbox');
    } else {
      // Settled under the inbox lock: another reviewer's answer to the same candidate cannot cross ours.
      let echo = 'dropped';
      const text = a.act === 'keep' ? a.text : null;
      const write =
        text === null
          ? undefined
          : async () => {
              const r = await keep(store, c, text);
              echo = r.echo;
              return r.item?.id;
            };
      if (!(await inbox.settle(c.id, a.act, write))) echo = 'decided in another aish meanwhile — nothing written';
      else if (a.act === 'keep') {
        tally.kept++;
        tally.wrote = true;
      } else tally.dropped++;
      io.print(echo);
    }
  }
  const waiting = inbox.pendingCount();
  return {
    ...tally,
    waiting,
    summary: `[aish] review: kept ${tally.kept}, dropped ${tally.dropped}, skipped ${tally.skipped}; ${waiting} still waiting`,
  };
}

/** `inbox.jsonl:LINE: reason` for the lines the inbox could not use (the first 20, then a sum). */
export function inboxWarnings(inbox: Inbox): string[] {
  return lineWarnings('inbox.jsonl', inbox.warnings, { suffix: ' (skipped)' });
}

async function review({ memory, ui, argv }: Pick<CommandServices, 'memory' | 'ui'> & { argv: string[] }) {
  const stale = argv.includes('--stale');
  const odd = argv.find((a) => a !== '--stale');
  if (odd !== undefined) throw new UsageError(`unknown option "${odd}" — :memory review [--stale]`);
  const { inbox, store, team, cwd, changed } = await memory.review();
  if (stale) {
    const r = await reviewStale(store, { ask: (q, o) => ui.ask(q, o), print: (l) => ui.print(info(l)) });
    if (r.wrote) changed();
    return { output: [info(r.summary)] };
  }
  for (const w of inboxWarnings(inbox)) ui.print(warn(w));
  const io: ReviewIO = { ask: (q, o) => ui.ask(q, o), print: (l) => ui.print(info(l)) };
  const r = await reviewInbox(inbox, store, io);
  const t = await reviewTeam(team, cwd, io);
  // Always: a drop writes nothing to memory but empties the inbox all the same, and the status's
  // `inbox N` is redrawn only on a change.
  changed();
  return { output: [info(r.summary), ...(t ? [info(t.summary)] : [])] };
}

export const reviewSubcommand: SubCommand<'memory' | 'ui'> = {
  name: 'review',
  args: '[--stale]',
  help: 'what sync held first (accept? [y/n/s]), then conflicting edits (keep which? [1/2/b/s]: one, both, skip),\nthen the inbox of proposed items: keep? [y/n/e/s] (yes, no, edit, skip for now);\n--stale: old items never recalled lately or updated by a newer one: keep? [y/n/e/s/q]\n(y keeps it as it is, stamped confirmed; n forgets it; e edits; s skips; q stops)',
  complete: (_ctx, argv) => (argv.length === 0 ? ['--stale'] : []),
  run: (ctx) => review(ctx),
};
