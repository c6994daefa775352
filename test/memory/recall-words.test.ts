/**
 * What recall matches and what it sends, through the real store, its index and MemorySession:
 * questions asked in other words (stems, developer abbreviations, the user's synonyms), keys,
 * weak terms that never match alone, project items first, and the cut that keeps a one-fact
 * question to its fact and small talk to nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { DEFAULT_CONFIG, type AishConfig, type MemoryConfig } from '../../src/config/types';
import { MAX_ITEMS } from '../../src/memory/recall/recall-cut';
import { MemorySession } from '../../src/memory/session';
import { setSynonyms } from '../../src/util/word-groups';
import { fillerNotes, writeNotes, type Note } from '../helpers/dev-notes';
import { tmpDir } from '../helpers/tmp';

const base = DEFAULT_CONFIG.memory as MemoryConfig;
/** Nothing in [background], so every item is recall's to choose. */
const CONFIG: AishConfig = { ...DEFAULT_CONFIG, memory: { ...base, injectMaxChars: 0 } };

const FACTS: Note[] = [
  { content: 'The app crashes on startup when REDIS_URL is unset' },
  { content: 'The linter runs in the pre-commit hook; fix warnings with npm run fix' },
  { content: 'PRs need two approvals and a green pipeline before merging' },
  { content: 'The prod DB is Postgres 15 on RDS, read replica in eu-west-1' },
  { content: 'k8s manifests are in deploy/manifests, applied by Argo' },
  { content: 'Login goes through Okta SAML; local dev uses a fake IdP' },
  { content: 'Admin UI listens on port 8080 behind the VPN' },
];

const open: MemorySession[] = [];
afterEach(() => {
  for (const m of open.splice(0)) m.close();
  setSynonyms(undefined);
});

async function sessionWith(notes: readonly Note[], o: { cwd?: string; config?: AishConfig } = {}) {
  const path = join(tmpDir(), 'memory.jsonl');
  writeNotes(path, notes);
  const m = new MemorySession(o.config ?? CONFIG, path, { cwd: () => o.cwd ?? '/work/elsewhere' }, { notice: () => {}, changed: () => {} });
  open.push(m);
  await m.ready();
  return m;
}

async function recalled(m: MemorySession, text: string): Promise<string[]> {
  const r = await m.recall([{ text, weight: 1 }]);
  return r ? r.items.map((x) => x.item.content) : [];
}

const store = () => [...fillerNotes(300), ...FACTS];

describe('recall in other words', () => {
  it.each([
    ['why does the app keep crashing at startup?', 0],
    ['how do I lint my code?', 1],
    ['how many approvals does a pull request need?', 2],
    ['which database runs in production?', 3],
    ['where are the kubernetes manifests?', 4],
    ['how does authentication work here?', 5],
  ])('%s → that fact first, and only a few items', async (question, fact) => {
    const m = await sessionWith(store());
    const got = await recalled(m, question);
    expect(got[0]).toBe(FACTS[fact]!.content);
    expect(got.length).toBeLessThanOrEqual(3);
  });

  it("finds a fact by the user's synonyms from the config file", async () => {
    const dir = tmpDir();
    writeFileSync(join(dir, 'config.ts'), 'export default { memory: { recall: { synonyms: { redis: ["cache store", "valkey"] } } } };\n');
    const { config } = await loadConfig(join(dir, 'config.ts'), {});
    expect(config.memory && config.memory.recall.synonyms).toEqual({ redis: ['cache store', 'valkey'] });
    const m = await sessionWith(store(), { config: { ...config, memory: { ...(config.memory as MemoryConfig), injectMaxChars: 0 } } });
    expect((await recalled(m, 'app crashes because valkey is not configured'))[0]).toBe(FACTS[0]!.content);
  });

  it('an index cut with other synonyms is rebuilt, and finds by the new ones', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeNotes(path, store());
    const { MemoryIndex } = await import('../../src/memory/index/memory-index');
    const count = () => {
      const ix = new MemoryIndex(path);
      ix.refresh();
      const n = ix.builds;
      ix.close();
      return n;
    };
    expect(count()).toBe(1);
    expect(count()).toBe(0);
    setSynonyms({ redis: ['valkey'] });
    expect(count()).toBe(1);
    expect(count()).toBe(0);
    const m = await sessionWith(store());
    expect((await recalled(m, 'valkey crashes on startup'))[0]).toBe(FACTS[0]!.content);
  });

  it('never matches on a number or a one- or two-character word alone; they add to a match', async () => {
    const m = await sessionWith(store());
    expect(await recalled(m, '8080?')).toEqual([]);
    expect(await recalled(m, 'is it 15 or 16')).toEqual([]);
    expect(await recalled(m, 'ui on 8080')).toEqual([]);
    expect(await recalled(m, 'which port is 8080?')).toEqual([FACTS[6]!.content]);
  });
});

describe('keys', () => {
  it('are indexed beside the text, kept by :memory edit, and set by it with (keys: …)', async () => {
    const notes = [...fillerNotes(200), { content: 'Rotate the signing secret every 90 days', keys: ['jwt', 'token expiry'] }];
    const m = await sessionWith(notes);
    const id = notes.length;
    expect(await recalled(m, 'when does the jwt expire?')).toEqual([notes[id - 1]!.content]);

    const edited = await m.store().edit(id, 'Rotate the signing secret every 60 days');
    expect(edited.ok && edited.item.keys).toEqual(['jwt', 'token expiry']);
    m.reselect();
    expect(await recalled(m, 'jwt rotation')).toEqual(['Rotate the signing secret every 60 days']);

    const { editItem } = await import('../../src/memory/ops');
    // Keys alone keep the text; text and keys set both.
    const r = await editItem(m.store(), id + 1, '(keys: hmac, key rotation)', ':memory list');
    expect(r.ok && r.text).toBe(`replaced ${id + 1} with ${id + 3} (fact), keys: hmac, key rotation`);
    m.reselect();
    expect(await recalled(m, 'which hmac do we use?')).toEqual(['Rotate the signing secret every 60 days']);
    expect(await recalled(m, 'jwt')).toEqual([]);
    await editItem(m.store(), id + 3, 'Rotate the signing secret monthly (keys: jws)', ':memory list');
    expect(m.store().reload().items[0]).toMatchObject({ content: 'Rotate the signing secret monthly', keys: ['jws'] });
  });
});

describe('here first', () => {
  it('a project item outranks a global item of equal relevance, even an older one', async () => {
    const proj = tmpDir();
    const notes: Note[] = [
      ...fillerNotes(200),
      { content: 'Releases ship with the blue-green script', scope: proj, ts: '2025-01-01T00:00:00Z' },
      { content: 'Releases ship with the canary script' },
    ];
    const here = await sessionWith(notes, { cwd: join(proj, 'src') });
    expect(await recalled(here, 'how do releases ship?')).toEqual([notes[200]!.content, notes[201]!.content]);
    const elsewhere = await sessionWith(notes);
    expect(await recalled(elsewhere, 'how do releases ship?')).toEqual([notes[201]!.content]);
  });
});

describe('precision', () => {
  it('a one-fact question sends that fact, not a dozen that share a word with it', async () => {
    const notes = [...store(), ...Array.from({ length: 20 }, (_, i) => ({ content: `The startup banner shows release ${i}` }))];
    const m = await sessionWith(notes);
    expect(await recalled(m, 'why does the app crash at startup when REDIS_URL is missing?')).toEqual([FACTS[0]!.content]);
  });

  it.each(["what's 2+2?", 'good morning', 'write a haiku about autumn', 'thanks!', 'ok'])('small talk sends nothing: %s', async (text) => {
    const m = await sessionWith(store());
    expect(await recalled(m, text)).toEqual([]);
  });

  it('nothing when the best match is one word most items share', async () => {
    const m = await sessionWith(store());
    // "frontend", "backend", "cache" … are each in a tenth of the filler notes.
    expect(await recalled(m, 'tell me about the cache')).toEqual([]);
    const plan = await m.plan('tell me about the cache');
    expect(plan.cutoff?.nothing).toBe('one common word');
  });

  it(':memory plan shows the cut and what it let through', async () => {
    const m = await sessionWith(store());
    const plan = await m.plan('which database runs in production?');
    const c = plan.cutoff!;
    expect(c.maxItems).toBe(MAX_ITEMS);
    expect(c.min).toBe(Math.max(c.idealCut, c.bestCut, c.minScore));
    expect(c.ideal).toBeGreaterThan(c.best * 0.5);
    expect(plan.recall.map((r) => r.item.content)).toEqual([FACTS[3]!.content]);
    for (const r of plan.recall) expect(r.relevance).toBeGreaterThanOrEqual(c.min);
    const { formatPlan } = await import('../../src/memory/recall/format-plan');
    const lines = formatPlan(plan, { query: 'which database runs in production?', isPinned: () => false });
    expect(lines.find((l) => l.includes('cutoff:'))).toMatch(/cutoff: relevance ≥ \d+\.\d\d \(the largest of .*\), at most 10 items/);
    const { planJson } = await import('../../src/memory/recall/plan');
    expect(planJson(plan, () => false)).toMatchObject({ cutoff: { max_items: MAX_ITEMS, min_relevance: expect.any(Number) } });
  });
});
