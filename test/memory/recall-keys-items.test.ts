/**
 * Keys proposed by the summarizer reach the kept item (capture's answer → inbox → review), and a
 * turn's [recall] holds at most `maxItems` items, in the turn and in the plan alike.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewInbox } from '../../src/commands/memory-review';
import type { ReviewIO } from '../../src/commands/memory-review-io';
import { parseCapture } from '../../src/memory/review/capture-prompt';
import { Inbox } from '../../src/memory/review/inbox';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { planRecall } from '../../src/memory/index/plan-recall';
import { IndexSearch } from '../../src/memory/index/search';
import { chooseRecall } from '../../src/memory/recall/recall';
import { MAX_ITEMS } from '../../src/memory/recall/recall-cut';
import { MemoryStore } from '../../src/memory/store';
import { parseCandidates } from '../../src/memory/review/summarize';
import { fillerNotes, writeNotes } from '../helpers/dev-notes';
import { tmpDir } from '../helpers/tmp';

describe('keys from the summarizer', () => {
  it('parses an optional (keys: …) part of a candidate, beside (supersedes #N)', () => {
    expect(parseCandidates('- fact: prod DB is Postgres 15 (keys: database, rds, "postgresql")\n- pref: tabs over spaces')).toEqual([
      { kind: 'fact', content: 'prod DB is Postgres 15', keys: ['database', 'rds', 'postgresql'] },
      { kind: 'pref', content: 'tabs over spaces' },
    ]);
    const cap = parseCapture('TITLE: db\nMEMORY:\n- fact: the DB moved to RDS [keys: aws, database] (supersedes #4)\n');
    expect(cap.candidates).toEqual([{ kind: 'fact', content: 'the DB moved to RDS', keys: ['aws', 'database'], supersedes: 4 }]);
  });

  it('a kept candidate writes its keys, and recall finds the item by them', async () => {
    const memPath = join(tmpDir(), 'memory.jsonl');
    writeNotes(memPath, fillerNotes(50));
    const store = MemoryStore.open(memPath);
    const inbox = Inbox.open(memPath);
    const [c] = parseCandidates('- fact: Rotate the signing secret every 90 days (keys: jwt, token expiry)');
    await inbox.add([{ kind: c!.kind, content: c!.content, keys: c!.keys!, source: { session: 's1' } }]);
    const io: ReviewIO = { ask: async () => 'y', print: () => {} };
    await reviewInbox(inbox, store, io);
    const kept = store.reload().items.find((i) => i.content.startsWith('Rotate'))!;
    expect(kept.keys).toEqual(['jwt', 'token expiry']);
    const ix = new MemoryIndex(memPath);
    const r = ix.read((x) =>
      chooseRecall(new IndexSearch(x), [{ text: 'when do jwt tokens expire?', weight: 1 }], {
        now: Date.now(),
        maxChars: 1200,
        minScore: 0,
        get: (id) => x.get(id),
        exclude: () => false,
      }),
    );
    expect(r.items.map((x) => x.item.id)).toEqual([kept.id]);
    ix.close();
  });
});

describe('keys travel', () => {
  it('through export and import, JSON lines and Markdown', async () => {
    const { exportJsonl, exportMarkdown, parseImport } = await import('../../src/memory/porting/transfer');
    const item = { id: 1, ts: '2026-01-01T00:00:00.000Z', kind: 'fact' as const, content: 'prod DB is Postgres', keys: ['rds', 'sql'] };
    for (const text of [exportJsonl([item], () => false, new Date()), exportMarkdown([item], () => false, new Date())]) {
      const parsed = parseImport(text);
      expect(parsed.items.map((t) => t.keys)).toEqual([['rds', 'sql']]);
      const store = MemoryStore.open(join(tmpDir(), 'memory.jsonl'));
      await store.importItems(parsed.items);
      expect(store.items()[0]!.keys).toEqual(['rds', 'sql']);
    }
  });
});

describe('maxItems', () => {
  it('a turn sends at most maxItems items; the rest are over budget, in the plan too', () => {
    const memPath = join(tmpDir(), 'memory.jsonl');
    writeNotes(memPath, [
      ...fillerNotes(300),
      ...Array.from({ length: 14 }, (_, i) => ({ content: `Flaky snapshot tests in module ${i}` })),
    ]);
    const ix = new MemoryIndex(memPath);
    const text = 'flaky snapshot tests';
    const base = { now: Date.now(), maxChars: 5000, minScore: 0, get: (id: number) => ix.get(id), exclude: () => false };
    for (const maxItems of [undefined, 3, 8]) {
      const want = maxItems ?? MAX_ITEMS;
      const turn = ix.read((x) => chooseRecall(new IndexSearch(x), [{ text, weight: 1 }], { ...base, ...(maxItems && { maxItems }) }));
      expect(turn.items).toHaveLength(want);
      const plan = ix.read((x) => planRecall(x, text, { ...base, inBackground: new Set(), cwd: '/', ...(maxItems && { maxItems }) }));
      expect(plan.items.map((r) => r.item.id)).toEqual(turn.items.map((r) => r.item.id));
      expect(plan.overBudget.size).toBe(14 - want);
      expect(plan.cutoff?.maxItems).toBe(want);
    }
    // A search is not a turn: every match, in order.
    const all = ix.read((x) => chooseRecall(new IndexSearch(x), [{ text, weight: 1 }], { ...base, limit: 50 }));
    expect(all.items).toHaveLength(14);
    ix.close();
  });
});
