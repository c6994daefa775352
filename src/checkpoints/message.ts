/**
 * What a checkpoint records lives in its shadow commit's message: a readable first line, then one
 * JSON line, so `list()` works across aish runs with nothing but the shadow repository.
 */
import { oneLine } from '../util/text';
import { SHORT_ID, type Checkpoint, type CheckpointRecord } from './types';

const MARK = 'aish-checkpoint ';

export function formatMessage(r: CheckpointRecord): string {
  const head = `${r.step ? `${r.step}: ` : ''}${oneLine(r.label)}`.slice(0, 72);
  const body: Record<string, unknown> = { v: 1, ts: r.ts, label: r.label, dir: r.dir };
  if (r.step) body.step = r.step;
  if (r.skipped) body.skipped = r.skipped;
  return `${head || 'checkpoint'}\n\n${MARK}${JSON.stringify(body)}\n`;
}

/** The checkpoint a commit message describes; null for anything else (a hand-made commit). */
export function parseMessage(commit: string, message: string): Checkpoint | null {
  const line = message.split('\n').find((l) => l.startsWith(MARK));
  if (!line) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(line.slice(MARK.length));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const o = raw as Record<string, unknown>;
  if (typeof o.ts !== 'string' || typeof o.label !== 'string' || typeof o.dir !== 'string') return null;
  const cp: Checkpoint = { id: commit.slice(0, SHORT_ID), commit, ts: o.ts, label: o.label, dir: o.dir };
  if (typeof o.step === 'string' && o.step) cp.step = o.step;
  if (typeof o.skipped === 'number' && o.skipped > 0) cp.skipped = o.skipped;
  return cp;
}

/** `git log -z --format=%H%x00%B` output: newest first, commits that are not checkpoints dropped. */
export function parseLog(out: string): Checkpoint[] {
  const parts = out.split('\0');
  const list: Checkpoint[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const cp = parseMessage(parts[i]!.trim(), parts[i + 1]!);
    if (cp) list.push(cp);
  }
  return list;
}
