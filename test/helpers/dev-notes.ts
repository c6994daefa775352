/**
 * A small store of realistic developer notes for recall tests: varied filler (so document
 * frequencies look like a real store's) and the few facts a test asks about, written as
 * memory.jsonl lines the real store and index read.
 */
import { writeFileSync } from 'node:fs';

const TOOLS = ['vite', 'webpack', 'esbuild', 'jest', 'vitest', 'eslint', 'prettier', 'docker', 'terraform', 'ansible', 'helm', 'nginx'];
const THINGS = ['cache', 'queue', 'worker', 'cron job', 'api gateway', 'frontend', 'backend', 'mobile app', 'admin panel', 'search'];
const VERBS = ['uses', 'needs', 'talks to', 'depends on', 'is configured by', 'is deployed with', 'logs through', 'is tested with'];
const EXTRA = [
  'keep it simple',
  'see the wiki page',
  'ask Maria before changing it',
  'measured last sprint',
  'the old setup was slower',
  'we may revisit this next quarter',
  'documented in the runbook',
  'owned by the platform team',
];

export interface Note {
  content: string;
  scope?: string;
  keys?: string[];
  ts?: string;
  /** Default 'fact'. */
  kind?: 'fact' | 'pref' | 'context';
}

/** `n` filler notes, deterministic. */
export function fillerNotes(n: number): Note[] {
  const out: Note[] = [];
  for (let i = 0; i < n; i++) {
    const a = THINGS[i % THINGS.length]!;
    const v = VERBS[(i * 3) % VERBS.length]!;
    const t = TOOLS[(i * 7) % TOOLS.length]!;
    const e = EXTRA[(i * 5) % EXTRA.length]!;
    out.push({ content: `The ${a} ${v} ${t}; ${e}.` });
  }
  return out;
}

/** memory.jsonl with these notes, ids from 1, one minute apart (the last newest). */
export function writeNotes(path: string, notes: readonly Note[]): void {
  const start = Date.parse('2026-01-01T00:00:00Z');
  const lines = notes.map((n, i) =>
    JSON.stringify({
      id: i + 1,
      ts: n.ts ?? new Date(start + i * 60_000).toISOString(),
      kind: n.kind ?? 'fact',
      content: n.content,
      ...(n.keys && { keys: n.keys }),
      ...(n.scope && { scope: n.scope }),
    }),
  );
  writeFileSync(path, lines.join('\n') + '\n');
}
