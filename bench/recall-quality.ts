/**
 * Recall quality on a realistic corpus (bench/recall-corpus/): for questions in the fact's own
 * words, in other words, from inside a project, and small talk — how often the fact asked about is
 * sent (hit rate, MRR), how much [recall] a turn sends, and how often small talk recalls anything.
 * Words-only by default; `hybrid` adds embeddings from the test server's `/v1/embeddings`, whose
 * vectors come from a small concept table: a stand-in for a real embedding model, not one.
 * AISH_RECALL_QUALITY_DETAIL=1 lists each missed question on stderr, and why its fact was not sent.
 */
import type { AishConfig } from '../src/config/types';
import { startFakeOpenAI } from '../test/helpers/openai-server';
import { CONCEPTS } from './recall-corpus/concepts';
import { buildCorpus } from './recall-corpus/corpus';
import { runCorpus, type HybridSetup } from './recall-corpus/harness';
import { scoreClass, type ClassScore } from './recall-corpus/score';
import { isSmallTalk, QUESTION_CLASSES, type QuestionClass } from './recall-corpus/types';

const LABEL: Record<QuestionClass, string> = {
  own: "in the fact's own words",
  other: 'in other words',
  project: 'from inside the project',
  smalltalk: 'small talk',
  chitchat: 'small talk, wider set',
};

const pct = (n: number, d: number) => `${n}/${d} (${d ? Math.round((100 * n) / d) : 0}%)`;

function rows(scores: ClassScore[], mode: string, size: number): string[][] {
  const out: string[][] = [];
  for (const s of scores) {
    const what = `recall quality, ${size} items, ${mode}: ${LABEL[s.class]} (${s.turns} turns)`;
    const chars = `[recall] chars per turn p50 / p90 ${s.charsP50} / ${s.charsP90}, items p50 ${s.itemsP50}`;
    if (isSmallTalk(s.class)) out.push([`${what}: turns with any [recall]`, pct(s.anyRecall, s.turns), '—', `goal 0; ${chars}`]);
    else {
      const extra = [s.background ? `${s.background} via [background]` : '', s.class === 'project' ? `${s.leaks} leaks` : ''].filter(
        Boolean,
      );
      out.push([`${what}: hit rate / MRR`, `${pct(s.hits, s.turns)} / ${s.mrr.toFixed(2)}`, '—', [chars, ...extra].join('; ')]);
    }
  }
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The test server's `/v1/embeddings`, where it has one: its concept table and the requests it got. */
type ConceptEndpoint = { concepts: Record<string, string[]>; requests: unknown[] };

/** The test server's concept-table embeddings as aish's embeddings config; null when the server has no such endpoint. */
async function conceptServer(): Promise<(HybridSetup & { close(): Promise<void>; requests(): number }) | null> {
  const server = await startFakeOpenAI();
  const endpoint = (server as { embeddings?: ConceptEndpoint }).embeddings;
  if (!endpoint) {
    await server.close();
    return null;
  }
  endpoint.concepts = CONCEPTS;
  const count = () => endpoint.requests.length;
  return {
    configure(config: AishConfig) {
      config.models.embed = { model: 'concept-table', baseURL: server.url, apiKey: 'test-key' };
      // A generous time limit: this measures what is found, not how fast (bench recall-turn does that).
      if (config.memory) Object.assign(config.memory.recall, { embeddings: { model: 'concept-table', preset: 'embed', timeoutMs: 5000 } });
    },
    // The items are embedded in the background: wait for the first request (up to 30 s), then until none came for 1 s.
    async settle() {
      for (let t = 0; t < 300 && count() === 0; t++) await sleep(100);
      for (let last = -1; count() !== last;) {
        last = count();
        await sleep(1000);
      }
    },
    requests: count,
    close: () => server.close(),
  };
}

export async function benchRecallQuality(o: { items?: number; hybrid?: boolean } = {}): Promise<{ rows: string[][] }> {
  const corpus = buildCorpus({ items: o.items ?? 3000, ...(o.items !== undefined && o.items < 3000 && { perProject: 10 }) });
  const hybrid = o.hybrid ? await conceptServer() : undefined;
  if (hybrid === null) return { rows: [[`recall quality, hybrid`, 'not measured', '—', 'the test server has no /v1/embeddings']] };
  try {
    const detail = process.env.AISH_RECALL_QUALITY_DETAIL === '1';
    const turns = await runCorpus(corpus, { ...(hybrid && { hybrid }), explain: detail });
    if (detail) {
      for (const t of turns) {
        const q = t.question;
        const missed = q.expect ? t.rank === 0 && !t.inBackground : t.chars > 0;
        if (missed || t.rank > 1)
          console.error(
            `[recall-quality] ${q.class} ${missed ? 'MISS' : `rank ${t.rank}`}: ${q.text} (${t.recalled} items, ${t.chars} chars)${t.why ? ` — ${t.why}` : ''}`,
          );
      }
    }
    if (hybrid) console.error(`[recall-quality] hybrid: ${hybrid.requests()} /v1/embeddings requests`);
    // Without an embeddings request the figures would be words-only ones under the hybrid name.
    if (hybrid && hybrid.requests() === 0) {
      return {
        rows: [
          [
            `recall quality, ${corpus.items.length} items, hybrid`,
            'not measured',
            '—',
            'no /v1/embeddings request: this build has no hybrid recall',
          ],
        ],
      };
    }
    const scores = QUESTION_CLASSES.map((c) => scoreClass(c, turns));
    return { rows: rows(scores, hybrid ? 'hybrid (concept-table stand-in embeddings)' : 'words-only', corpus.items.length) };
  } finally {
    await hybrid?.close();
  }
}
