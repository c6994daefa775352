/** `aish memory review [--json]`: the inbox outside the REPL — listed as JSON, or walked in a terminal like `:memory review`. */
import type { Setup } from '../../config/setup';
import { inboxWarnings, reviewInbox } from '../../commands/memory-review';
import type { ReviewIO } from '../../commands/memory-review-io';
import { reviewTeam } from '../../commands/memory-review-team';
import { findConflicts, provenance } from '../../memory/review/conflicts';
import type { MemoryStore } from '../../memory/store';
import { heldGroups, type HeldGroup } from '../../memory/sync/held-review';
import { uidOf } from '../../memory/log/identity';
import { Inbox } from '../../memory/review/inbox';
import { lockTimingFromEnv } from '../../memory/log/lock';
import { TeamMemory } from '../../memory/team/team-memory';
import type { MemoryItem } from '../../memory/types';
import { runningCaptures, waitForCaptures } from '../../sessions/capture-marker';
import { UsageError } from '../../util/errors';
import { lineQuestions } from '../line-questions';
import { listStale } from './memory-review-stale';
import { memoryOn, openStore } from './memory-store';
import { out, outJson, warn } from './output';

const brief = (it: MemoryItem) => ({ id: it.id, kind: it.kind, content: it.content });

function heldJson(g: HeldGroup, store: MemoryStore): object {
  const byUid = (uid: string | undefined) => (uid ? store.items().find((it) => uidOf(it) === uid) : undefined);
  const old = g.why === 'edit' ? byUid(g.replaces) : undefined;
  const items = g.records.flatMap((h) =>
    'content' in h.record ? [{ uid: h.record.uid, kind: h.record.kind, content: h.record.content }] : [],
  );
  const forgets = g.records.flatMap((h) => ('target_uid' in h.record && h.record.kind === 'forget' ? [h.record.target_uid] : []));
  return {
    held: g.why,
    key: g.key,
    from: g.name,
    writer: g.writer,
    ...(old && { old: brief(old) }),
    items: items.slice(0, 1000),
    count: items.length,
    forgets,
  };
}

/** How long the review waits for a capture still running (a model call) before listing without it. */
export const CAPTURE_WAIT_MS = 15_000;

export async function memoryReview(s: Setup, opts: { json?: boolean; stale?: boolean }): Promise<void> {
  memoryOn(s);
  if (opts.stale) return listStale(openStore(s), opts.json === true);
  // Refused before anything is read: a pipe cannot answer keep? [y/n/e/s].
  if (!opts.json && !process.stdin.isTTY)
    throw new UsageError('aish memory review needs a terminal — use --json to list, or :memory review in aish');
  // A session that just quit may still be being read: its candidates belong in this review.
  await waitForCaptures(() => runningCaptures(s.paths.sessionsDir), CAPTURE_WAIT_MS);
  const store = openStore(s);
  const inbox = Inbox.open(s.paths.memoryPath, { lock: lockTimingFromEnv(), notice: (t) => warn(`warning: ${t}`) });
  const team = new TeamMemory(s.config, s.paths.memoryPath, { lock: lockTimingFromEnv(), notice: (t) => warn(`warning: ${t}`) });
  for (const w of inboxWarnings(inbox)) warn(`warning: ${w}`);
  if (opts.json) {
    const list: object[] = inbox.pending().map((c) => {
      const old = c.supersedes !== undefined ? store.get(c.supersedes) : undefined;
      return { ...c, ...(old && { old: { id: old.id, kind: old.kind, content: old.content } }) };
    });
    // Teammates' items waiting here, after the inbox's: `team` names the author (they have no id).
    for (const { item: t, status } of team.pending(process.cwd()))
      list.push({ team: t.author, uid: t.uid, ts: t.ts, kind: t.kind, content: t.content, where: t.where, status });
    // What sync held (the walk asks it first): `held` is the reason, `key` names the group.
    for (const g of heldGroups(s.paths.memoryPath)) list.push(heldJson(g, store));
    // Conflicts last (the walk asks them first): `conflict` is the uid of the item the rivals replace.
    for (const c of findConflicts(store, inbox))
      list.push({
        conflict: c.replaced,
        ...(c.old && { old: brief(c.old) }),
        rivals: c.rivals.map((it) => ({ ...brief(it), uid: uidOf(it), ts: it.ts, ...(provenance(it) && { from: provenance(it) }) })),
      });
    outJson(list);
    return;
  }
  const questions = lineQuestions(process.stdout);
  const io: ReviewIO = { ask: (q, o) => questions.ask(q, o), print: (l) => out(l) };
  try {
    out((await reviewInbox(inbox, store, io)).summary);
    const t = await reviewTeam(team, process.cwd(), io);
    if (t) out(t.summary);
  } finally {
    questions.close();
  }
}
