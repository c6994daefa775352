/**
 * Recall of evidence on long conversations (bench/recall-corpus/conversation.ts): each conversation
 * is one memory.jsonl, each question the first message of a turn through MemorySession as the REPL
 * sends it; what the turn sends is [background] (the system prompt's) and [recall]. Scored as the
 * share of a question's evidence turns sent, per kind, and the characters of memory per turn.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type AishConfig } from '../src/config/types';
import { recallQuery } from '../src/context/recall-query';
import { backgroundBlock } from '../src/memory/background/blocks';
import { MemorySession } from '../src/memory/session';
import { percentile } from './lib';
import { buildConversations, type Conversation } from './recall-corpus/conversation';
import type { EventKind } from './recall-corpus/conversation-events';
import { CHITCHAT } from './recall-corpus/chitchat';
import { SMALL_TALK } from './recall-corpus/smalltalk';

export interface ConvOutcome {
  kind: EventKind;
  text: string;
  /** Share of the evidence turns sent. */
  recall: number;
  /** [background] + [recall] characters. */
  chars: number;
  recalled: number;
}

/** The recall-quality corpus's small talk, both sets: asked of every conversation, it should recall nothing. */
const SMALL = [...SMALL_TALK, ...CHITCHAT];

export async function runConversation(conv: Conversation, quiet: { asked: number; recalled: number }): Promise<ConvOutcome[]> {
  const dir = mkdtempSync(join(tmpdir(), 'aish-recall-conv-'));
  try {
    const home = join(dir, 'home');
    mkdirSync(home);
    const path = join(dir, 'memory.jsonl');
    const lines = conv.turns.map((t, i) => JSON.stringify({ id: i + 1, ts: t.ts, kind: 'context', content: t.content }));
    writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });
    const config: AishConfig = structuredClone(DEFAULT_CONFIG);
    const session = new MemorySession(config, path, { cwd: () => home }, { notice: () => {}, changed: () => {} });
    try {
      await session.ready();
      session.prepareRecall();
      const out: ConvOutcome[] = [];
      for (const q of conv.questions) {
        const turn = await session.recall(recallQuery(q.text, []));
        const sent = new Set([...(turn?.items.map((r) => r.item.id) ?? []), ...session.injected.map((it) => it.id)]);
        const found = q.evidence.filter((e) => sent.has(e + 1)).length;
        out.push({
          kind: q.kind,
          text: q.text,
          recall: found / q.evidence.length,
          chars: backgroundBlock(session.injected).length + (turn?.block.length ?? 0),
          recalled: turn?.items.length ?? 0,
        });
      }
      for (const text of SMALL) {
        const turn = await session.recall(recallQuery(text, []));
        quiet.asked++;
        if (turn?.items.length) quiet.recalled++;
      }
      return out;
    } finally {
      session.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const KINDS: readonly [EventKind, string][] = [
  ['single', 'single-hop'],
  ['multi', 'multi-hop'],
  ['temporal', 'temporal'],
  ['open', 'open-domain'],
];

export async function benchRecallConversation(o: { conversations?: number } = {}): Promise<{ rows: string[][] }> {
  const convs = buildConversations({ conversations: o.conversations ?? 5 });
  const all: ConvOutcome[] = [];
  const quiet = { asked: 0, recalled: 0 };
  for (const c of convs) all.push(...(await runConversation(c, quiet)));
  if (process.env.AISH_RECALL_QUALITY_DETAIL === '1')
    for (const t of all)
      if (t.recall < 1) console.error(`[recall-conversation] ${t.kind} ${Math.round(t.recall * 100)}%: ${t.text} (${t.recalled} items)`);
  const items = convs.reduce((n, c) => n + c.turns.length, 0);
  const mean = (xs: ConvOutcome[]) => (xs.length ? `${Math.round((100 * xs.reduce((s, x) => s + x.recall, 0)) / xs.length)}%` : '—');
  const rows: string[][] = [];
  for (const [k, label] of [...KINDS, ['all', 'all'] as const]) {
    const mine = k === 'all' ? all : all.filter((x) => x.kind === k);
    rows.push([
      `recall of evidence, ${convs.length} conversations (${items} turns): ${label} (${mine.length} questions)`,
      mean(mine),
      '—',
      '',
    ]);
  }
  const chars = all.map((x) => x.chars).sort((a, b) => a - b);
  const recalled = all.map((x) => x.recalled).sort((a, b) => a - b);
  rows.push([
    'memory chars per turn ([background] + [recall]) p50 / p90 / max',
    `${percentile(chars, 50)} / ${percentile(chars, 90)} / ${chars[chars.length - 1]}`,
    '—',
    `[recall] items p50 ${percentile(recalled, 50)}`,
  ]);
  rows.push([
    `small talk (${SMALL.length} messages × ${convs.length} conversations): turns with any [recall]`,
    `${quiet.recalled}/${quiet.asked} (${Math.round((100 * quiet.recalled) / Math.max(1, quiet.asked))}%)`,
    '—',
    'goal 0',
  ]);
  return { rows };
}
