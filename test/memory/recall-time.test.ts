/**
 * Recall by time, over the index at a fixed clock: a period the message names favours the items
 * written then, and narrows to them when its words alone recall nothing; a "when" question favours
 * items that say a time. `:memory plan` shows the reading and marks what it favoured, and plans
 * what a turn sends.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { planRecall } from '../../src/memory/index/plan-recall';
import { IndexSearch } from '../../src/memory/index/search';
import { formatPlan } from '../../src/memory/recall/format-plan';
import { buildPlan, planJson } from '../../src/memory/recall/plan';
import { chooseRecall, type Recalled } from '../../src/memory/recall/recall';
import { favourTime, timeOf } from '../../src/memory/recall/recall-time';
import { NONE } from '../../src/memory/index/background';
import { tmpDir } from '../helpers/tmp';

const NOW = Date.parse('2026-12-06T09:00:00Z');
const DAY = 86_400_000;

function indexOf(items: Array<{ ts: string; content: string }>): MemoryIndex {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, items.map((it, i) => JSON.stringify({ id: i + 1, kind: 'context', ...it })).join('\n') + '\n', { mode: 0o600 });
  const ix = new MemoryIndex(path);
  ix.refresh();
  return ix;
}

/** What a turn sends for `text`: ids in order, and what time favoured. */
function turn(ix: MemoryIndex, text: string): Array<[number, string | undefined]> {
  const r = chooseRecall(new IndexSearch(ix), [{ text, weight: 1 }], {
    now: NOW,
    maxChars: 1200,
    minScore: 2,
    get: (id) => ix.get(id),
    exclude: () => false,
  });
  return r.items.map((x) => [x.item.id, x.favoured]);
}

function plan(ix: MemoryIndex, text: string): { ids: number[]; text: string[]; json: object } {
  const p = planRecall(ix, text, { now: NOW, maxChars: 1200, minScore: 2, inBackground: new Set(), cwd: '/' });
  const built = buildPlan(NONE, p, (id) => ix.get(id));
  return {
    ids: p.items.map((r) => r.item.id),
    text: formatPlan(built, { query: text, isPinned: () => false }),
    json: planJson(built, () => false),
  };
}

const iso = (t: number) => new Date(t).toISOString();

describe('recall by time', () => {
  it('favours the items written in the period a message names, over newer ones as relevant', () => {
    const ix = indexOf([
      { ts: '2023-05-10T10:00:00Z', content: 'moved the session cache to redis for the api' },
      { ts: '2024-01-10T10:00:00Z', content: 'moved the session cache to memcached for the api' },
      ...Array.from({ length: 30 }, (_, i) => ({ ts: iso(NOW - (i + 1) * DAY), content: `unrelated note number ${i} about lunch` })),
    ]);
    // Without time words the newer comes first; with "in May 2023" the one written then.
    expect(turn(ix, 'where did we move the session cache?').map(([id]) => id)).toEqual([2, 1]);
    expect(turn(ix, 'where did we move the session cache in May 2023?')).toEqual([
      [1, 'period'],
      [2, undefined],
    ]);
    const p = plan(ix, 'where did we move the session cache in May 2023?');
    expect(p.ids).toEqual([1, 2]);
    expect(p.text).toContainEqual(
      expect.stringMatching(/^ {2}time: "in may 2023" → 2023-05-01 – 2023-05-31: items written then score ×2; 1 recalled item favoured$/),
    );
    expect(p.text).toContainEqual(
      expect.stringMatching(/#1 \(context\) moved the session cache to redis .*\(3 years old\).*\[time: period\]$/),
    );
    expect(p.json).toMatchObject({
      time: { said: ['in may 2023'], periods: ['2023-05-01 – 2023-05-31'], when: false },
      recall: [{ id: 1, favoured: 'period' }, { id: 2 }],
    });
    ix.close();
  });

  it('narrows to the period when its words alone recall nothing (a name most items hold)', () => {
    const months = ['2023-06-12', '2023-07-10', '2023-08-14'];
    const ix = indexOf(
      Array.from({ length: 240 }, (_, i) => ({
        ts: `${months[i % 3]}T10:${String(i % 60).padStart(2, '0')}:00Z`,
        content: i % 3 === 1 && i % 2 ? `Caroline: went to the pride parade ${i}` : `Caroline: said something ordinary ${i}`,
      })),
    );
    // "caroline" is in every item: alone it recalls nothing.
    expect(turn(ix, 'What did Caroline do?')).toEqual([]);
    const sent = turn(ix, 'What did Caroline do in July?');
    expect(sent.length).toBeGreaterThan(0);
    for (const [id, why] of sent) {
      expect(ix.get(id)!.ts.startsWith('2023-07')).toBe(true);
      expect(why).toBe('period');
    }
    const p = plan(ix, 'What did Caroline do in July?');
    expect(p.ids).toEqual(sent.map(([id]) => id));
    expect(p.text).toContainEqual(expect.stringMatching(/time: "in july" → July \(any year\): .*its words alone recall nothing/));
    ix.close();
  });

  it('for a "when" question, moves up the hits that say a time', () => {
    const ix = indexOf([
      { ts: '2026-11-20T10:00:00Z', content: 'we went to the coldplay concert last night, what an evening' },
      { ts: '2026-11-28T10:00:00Z', content: 'the coldplay concert tickets were expensive' },
      ...Array.from({ length: 30 }, (_, i) => ({ ts: iso(NOW - (i + 1) * DAY), content: `unrelated note number ${i} about lunch` })),
    ]);
    expect(turn(ix, 'did we like the coldplay concert?').map(([id]) => id)).toEqual([2, 1]);
    expect(turn(ix, 'When did we go to the coldplay concert?')).toEqual([
      [1, 'says a time'],
      [2, undefined],
    ]);
    expect(plan(ix, 'When did we go to the coldplay concert?').text).toContainEqual(
      expect.stringMatching(/time: "when" → asks when: items that say a time .*; 1 recalled item favoured/),
    );
    ix.close();
  });

  it('moves a hit saying a time up only past hits it outscores × WHEN_BOOST, keeping the rest in order', () => {
    const at = (id: number, score: number, content: string): Recalled => ({
      item: { id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content },
      score,
      relevance: score,
    });
    const time = timeOf('when did we ship it', NOW);
    const hits = [at(1, 10, 'shipped it'), at(2, 5, 'the ship'), at(3, 4.5, 'shipped yesterday'), at(4, 1, 'shipped on friday')];
    expect(favourTime(hits, time, () => 0).map((r) => r.item.id)).toEqual([1, 3, 2, 4]);
    expect(favourTime(hits, null, () => 0)).toEqual(hits);
  });
});
