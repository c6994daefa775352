/**
 * What a checkpoint records lives in its shadow commit's message: a readable first line, then one
 * JSON line, so `list()` works across aish runs with nothing but the shadow repository.
 */
import { oneLine } from '../util/text';
import { SHORT_ID, type Checkpoint, type CheckpointRecord, type LeftGroup, type LeftOut, type ModeRecord } from './types';

const MARK = 'aish-checkpoint ';

export function formatMessage(r: CheckpointRecord): string {
  const head = `${r.step ? `${r.step}: ` : ''}${oneLine(r.label)}`.slice(0, 72);
  const body: Record<string, unknown> = { v: 1, ts: r.ts, label: r.label, dir: r.dir };
  if (r.step) body.step = r.step;
  if (r.skipped) body.skipped = r.skipped;
  if (r.modes) body.modes = r.modes;
  if (r.dirs?.length) body.dirs = r.dirs;
  if (r.left && Object.keys(r.left).length) body.left = r.left;
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
  const modes = parseModes(o.modes);
  if (modes) cp.modes = modes;
  if (Array.isArray(o.dirs) && o.dirs.every((d) => typeof d === 'string')) cp.dirs = o.dirs;
  const left = parseLeft(o.left);
  if (left) cp.left = left;
  return cp;
}

const isBits = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0o7777;

// A record that does not parse is as if there were none: nothing is chmod-ed from a guess.
function parseModes(v: unknown): ModeRecord | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const m = v as Record<string, unknown>;
  if (!isBits(m.f) || !isBits(m.x) || !isBits(m.d)) return undefined;
  if (m.p === null) return { f: m.f, x: m.x, d: m.d, p: null };
  if (typeof m.p !== 'object' || m.p === undefined || !Object.values(m.p).every(isBits)) return undefined;
  return { f: m.f, x: m.x, d: m.d, p: m.p as Record<string, number> };
}

function parseLeft(v: unknown): LeftOut | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const out: LeftOut = {};
  for (const k of ['ignored', 'large', 'nested', 'unreadable', 'dirs'] as const) {
    const g = (v as Record<string, unknown>)[k] as Partial<LeftGroup> | undefined;
    if (g && typeof g.n === 'number' && Array.isArray(g.paths)) out[k] = { n: g.n, paths: g.paths.filter((p) => typeof p === 'string') };
  }
  return Object.keys(out).length ? out : undefined;
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
