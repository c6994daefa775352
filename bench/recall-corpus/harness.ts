/**
 * Runs a corpus's questions through recall as a turn does: the items written to a memory.jsonl in a
 * temp directory, one MemorySession over it (start-up, then `recall(recallQuery(message, []))` per
 * question, as the first message of a conversation), aish's directory inside the question's project
 * or outside every project. Words-only, or with the config `hybrid.configure` makes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { recallQuery } from '../../src/context/recall-query';
import { MemorySession } from '../../src/memory/session';
import type { TurnOutcome } from './score';
import type { Corpus } from './types';

export interface HybridSetup {
  /** Sets the embeddings config (memory.recall.embeddings and the preset it names). */
  configure(config: AishConfig): void;
  /** Resolves when the items are embedded (the turns are measured after that). */
  settle(session: MemorySession): Promise<void>;
}

export interface HarnessOptions {
  hybrid?: HybridSetup;
  /** Where the temp data directory goes (default: the OS's). */
  tmp?: string;
  /** Say why each missed fact was not sent (TurnOutcome.why): slower, for AISH_RECALL_QUALITY_DETAIL. */
  explain?: boolean;
}

export async function runCorpus(corpus: Corpus, o: HarnessOptions = {}): Promise<TurnOutcome[]> {
  const dir = mkdtempSync(join(o.tmp ?? tmpdir(), 'aish-recall-quality-'));
  try {
    const projectDir = (name: string) => join(dir, 'projects', name);
    const outside = join(dir, 'home');
    mkdirSync(outside, { recursive: true });
    for (const p of corpus.projects) mkdirSync(projectDir(p), { recursive: true });
    const start = Date.parse('2025-03-01T08:00:00Z');
    const idOf = new Map<string, number>();
    const projectOf = new Map<number, string>();
    const lines = corpus.items.map((it, i) => {
      const id = i + 1;
      if (it.key) idOf.set(it.key, id);
      if (it.project) projectOf.set(id, it.project);
      const scope = it.project && { scope: projectDir(it.project) };
      // An item about every 40 minutes: 3,000 items span about three months.
      return JSON.stringify({ id, ts: new Date(start + i * 40 * 60_000).toISOString(), kind: it.kind, content: it.content, ...scope });
    });
    const path = join(dir, 'memory.jsonl');
    writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });

    const config: AishConfig = structuredClone(DEFAULT_CONFIG);
    o.hybrid?.configure(config);
    let cwd = outside;
    const session = new MemorySession(config, path, { cwd: () => cwd }, { notice: () => {}, changed: () => {} });
    try {
      await session.ready();
      session.prepareRecall();
      await o.hybrid?.settle(session);
      const out: TurnOutcome[] = [];
      for (const q of corpus.questions) {
        const here = q.project ? projectDir(q.project) : outside;
        if (here !== cwd) {
          cwd = here;
          session.dirChanged();
        }
        const expected = q.expect === undefined ? undefined : idOf.get(q.expect);
        if (q.expect !== undefined && expected === undefined) throw new Error(`recall-quality: no item has key ${q.expect}`);
        const turn = await session.recall(recallQuery(q.text, []));
        const ids = turn?.items.map((r) => r.item.id) ?? [];
        const missed = expected !== undefined && !ids.includes(expected) && !session.injected.some((it) => it.id === expected);
        out.push({
          ...(o.explain && missed && { why: await whyMissed(session, q.text, expected) }),
          question: q,
          rank: expected === undefined ? 0 : ids.indexOf(expected) + 1,
          inBackground: expected !== undefined && session.injected.some((it) => it.id === expected),
          recalled: ids.length,
          chars: turn?.block.length ?? 0,
          leaked: ids.filter((id) => projectOf.has(id) && projectOf.get(id) !== q.project).length,
        });
      }
      return out;
    } finally {
      session.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Why a fact was not sent: where `:memory search` (the message's own words, no cut) ranks it and
 * its relevance as a share of the message's ideal score, against the cut `:memory plan` shows.
 */
async function whyMissed(session: MemorySession, text: string, id: number): Promise<string> {
  const plan = await session.plan(text);
  const cut = plan.cutoff;
  if (!cut) return 'no word of the message is in any item';
  const found = await session.search(text, 500);
  const at = found.findIndex((r) => r.item.id === id);
  const cutText = `cut ${(cut.min / cut.ideal).toFixed(2)} of the ideal ${cut.ideal.toFixed(2)}${cut.nothing ? `, nothing sent: ${cut.nothing}` : ''}`;
  if (at < 0) return `the fact shares no word the search ranks; ${cutText}`;
  return `ranked ${at + 1} by its own words at ${(found[at]!.relevance / cut.ideal).toFixed(2)} of the ideal; ${cutText}`;
}
