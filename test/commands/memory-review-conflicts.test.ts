/** `:memory review` walks conflicts first: old beside every rival, `keep which? [1/2/b/s]`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewInbox } from '../../src/commands/memory-review';
import type { ReviewIO } from '../../src/commands/memory-review-io';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import { handOffCapture } from '../../src/frontends/capture-handoff';
import { routerFor } from '../../src/input/router';
import { Inbox } from '../../src/memory/review/inbox';
import { MemoryStore } from '../../src/memory/store';
import { recordingHost } from '../helpers/host';
import { appendRemoteEdit, clock, conflictedStore } from '../helpers/memory-conflict';
import { tmpDir } from '../helpers/tmp';

/** Answers from a script (null once it runs out); `onAsk` runs before each answer. */
function scripted(answers: Array<string | null>, onAsk?: (n: number) => Promise<void>) {
  const asked: string[] = [];
  const printed: string[] = [];
  const io: ReviewIO = {
    ask: async (q) => {
      asked.push(q);
      await onAsk?.(asked.length);
      return answers.length ? answers.shift()! : null;
    },
    print: (l) => printed.push(l),
  };
  return { io, asked, printed };
}

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('conflicts in review', () => {
  it('shows the old text beside both rivals, numbered, with where each came from; 2 keeps that one and forgets the other in one write', async () => {
    const { path, store, old, mine, theirs } = await conflictedStore();
    const inbox = Inbox.open(path, { now: clock() });
    const { io, asked, printed } = scripted(['2']);
    const before = records(path).length;
    const r = await reviewInbox(inbox, store, io);
    expect(printed.slice(0, 4)).toEqual([
      '[conflict] 1/1 (fact) edited in 2 places:',
      `  old #${old.id}: CI runs Node 18`,
      `  1. #${theirs}: CI runs Node 22  — via workstation`,
      `  2. #${mine.id}: CI runs Node 20`,
    ]);
    expect(asked).toEqual(['keep which? [1/2/b/s] ']);
    expect(printed[4]).toBe(`kept #${mine.id}, forgot #${theirs}`);
    expect(r.summary).toBe('[aish] review: conflicts resolved 1, kept all 0, skipped 0; the inbox is empty');
    expect(r.wrote).toBe(true);
    const added = records(path).slice(before);
    expect(added).toEqual([expect.objectContaining({ kind: 'forget', target: theirs, target_uid: expect.stringMatching(/^01KREMOTE/) })]);
    const fresh = MemoryStore.open(path);
    expect(fresh.items().map((i) => i.content)).toEqual(['CI runs Node 20']);
    // Nothing left to ask.
    const again = scripted([]);
    expect((await reviewInbox(inbox, fresh, again.io)).summary).toBe('the inbox is empty');
    expect(again.asked).toEqual([]);
  });

  it('b keeps both and is not asked again; both stay active', async () => {
    const { path, store } = await conflictedStore();
    const inbox = Inbox.open(path, { now: clock() });
    const first = scripted(['b']);
    const r = await reviewInbox(inbox, store, first.io);
    expect(first.printed).toContain('kept all 2');
    expect(r.summary).toBe('[aish] review: conflicts resolved 0, kept all 1, skipped 0; the inbox is empty');
    expect(r.wrote).toBe(false);
    expect(store.items()).toHaveLength(2);
    const second = scripted([]);
    await reviewInbox(Inbox.open(path), MemoryStore.open(path), second.io);
    expect(second.asked).toEqual([]);
  });

  it('s (or anything else) leaves it to ask again next time; then the inbox candidates are walked', async () => {
    const { path, store } = await conflictedStore();
    const inbox = Inbox.open(path, { now: clock() });
    await inbox.add([{ kind: 'fact', content: 'prefers rebase', source: { session: 's1' } }]);
    const first = scripted(['s', 's']);
    const r = await reviewInbox(inbox, store, first.io);
    expect(first.asked).toEqual(['keep which? [1/2/b/s] ', 'keep? [y/n/e/s] ']);
    expect(first.printed).toContain('skipped — asked again next review');
    expect(r.summary).toBe('[aish] review: conflicts resolved 0, kept all 0, skipped 1; kept 0, dropped 0, skipped 1; 1 still waiting');
    expect(store.items()).toHaveLength(2);
    const second = scripted(['x']);
    await reviewInbox(inbox, store, second.io);
    expect(second.asked[0]).toBe('keep which? [1/2/b/s] ');
  });

  it('end of input stops the whole review: the inbox is not walked', async () => {
    const { path, store } = await conflictedStore();
    const inbox = Inbox.open(path, { now: clock() });
    await inbox.add([{ kind: 'fact', content: 'prefers rebase', source: { session: 's1' } }]);
    const io = scripted([]);
    const r = await reviewInbox(inbox, store, io.io);
    expect(io.asked).toEqual(['keep which? [1/2/b/s] ']);
    expect(r.summary).toBe('[aish] review: conflicts resolved 0, kept all 0, skipped 0; stopped; 1 still waiting');
    expect(inbox.pending().map((c) => c.content)).toEqual(['prefers rebase']);
  });

  it('a conflict resolved elsewhere while an earlier one was asked is not asked', async () => {
    const { path, store } = await conflictedStore();
    const other = await store.add('pref', 'tabs');
    await store.edit(other.id, 'spaces');
    const r2 = appendRemoteEdit(path, store.maxId, other, 'two spaces', 'server', Date.parse('2026-11-20T08:00:00Z'));
    store.reload();
    const inbox = Inbox.open(path, { now: clock() });
    // While the first is asked, another aish forgets a rival of the second.
    const { io, asked, printed } = scripted(['s'], async (n) => {
      if (n === 1) await MemoryStore.open(path).forget(r2);
    });
    await reviewInbox(inbox, store, io);
    expect(asked).toEqual(['keep which? [1/2/b/s] ']);
    expect(printed).toContain('[conflict] 2/2 was resolved elsewhere — next');
  });

  it("a rival that arrives while an earlier conflict is asked is shown with the others; another machine's label cannot carry escapes", async () => {
    const { path, store } = await conflictedStore();
    const other = await store.add('pref', 'tabs');
    await store.edit(other.id, 'spaces');
    appendRemoteEdit(path, store.maxId, other, 'two spaces', 'server', Date.parse('2026-11-20T08:00:00Z'));
    store.reload();
    const inbox = Inbox.open(path, { now: clock() });
    const { io, printed } = scripted(['s', 's'], async (n) => {
      if (n === 1) appendRemoteEdit(path, MemoryStore.open(path).maxId, other, 'four spaces', '\u001b[2Jevil\u0007box');
    });
    await reviewInbox(inbox, store, io);
    expect(printed).toContain('[conflict] 2/2 (pref) edited in 3 places:');
    expect(printed.find((l) => l.includes('four spaces'))).toMatch(/four spaces {2}— via \[2Jevilbox$/);
  });

  it('a store without conflicts shows nothing of them', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    const store = MemoryStore.open(path);
    const a = await store.add('fact', 'one');
    await store.edit(a.id, 'one, edited');
    const { io, printed, asked } = scripted([]);
    expect((await reviewInbox(Inbox.open(path), store, io)).summary).toBe('the inbox is empty');
    expect([...printed, ...asked]).toEqual([]);
  });
});

describe('conflicts in the REPL', () => {
  it(':memory list marks conflicting items; the status count and :memory review include them', async () => {
    const home = tmpDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
    const s = await setup({}, env);
    await conflictedStore(s.paths.memoryPath);
    const { host, printed } = recordingHost(['1'], { interactive: true });
    const [engine, parts] = Engine.compose(s, host, { env }, (p) => p);
    const input = routerFor(parts);
    await input.submit(':memory list');
    const listing = printed.map((p) => p.text).join('\n');
    expect(listing).toMatch(/CI runs Node 20 {2}\(conflict\)/);
    expect(listing).toMatch(/CI runs Node 22 {2}\(from \w+\) {2}\(conflict\)/);
    expect(parts.memory.inboxCount()).toBe(1);
    expect(parts.memory.conflictCount()).toBe(1);
    // Said at quit too (no session to capture: nothing is spawned).
    expect(handOffCapture(engine, s)).toBe('inbox: 1 conflict — aish memory review (or :memory review)');
    await input.submit(':memory review');
    expect(printed.map((p) => p.text)).toContain('[aish] review: conflicts resolved 1, kept all 0, skipped 0; the inbox is empty');
    expect(parts.memory.inboxCount()).toBe(0);
    printed.length = 0;
    await input.submit(':memory list');
    expect(printed.map((p) => p.text).join('\n')).not.toContain('(conflict)');
    expect(handOffCapture(engine, s)).toBeNull();
  });
});
