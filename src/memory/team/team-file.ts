/**
 * Reading the team files of a project: every `<root>/.aish/memory/*.jsonl`, one shared item per
 * line (docs/team-memory.md). A checkout is not ours: files are read bounded (regular files only,
 * a size cap per file and per line, a cap on how many), a line that cannot be used is named in a
 * warning and skipped, and nothing here throws. Secrets a teammate's line holds are redacted on
 * the way in, as they would be by :remember.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { redactSecrets } from '../../util/secrets/redact';
import { readSmallFile } from '../git-repo';
import { isMemoryKind, type MemoryItem } from '../types';

/** A teammate's item: labelled with its author (the file's name), never given a local id the user could type. */
export interface TeamItem extends MemoryItem {
  uid: string;
  author: string;
  /** Where it was read: `.aish/memory/alice.jsonl:3`. */
  where: string;
}

export const TEAM_FILE_MAX_BYTES = 4 * 1024 * 1024;
export const TEAM_LINE_MAX_BYTES = 64 * 1024;
const TEAM_MAX_FILES = 256;

/** Where a project's team files are. */
export function teamDir(root: string): string {
  return join(root, '.aish', 'memory');
}

/** A file name's author: what `<name>.jsonl` says, when it is a safe name. */
export function authorOfFile(file: string): string | undefined {
  const m = /^([a-z0-9][a-z0-9._-]{0,63})\.jsonl$/.exec(file);
  return m?.[1];
}

export interface TeamRead {
  /** Newest first; ids are −1, −2, … in this order (never a local id). */
  items: TeamItem[];
  warnings: string[];
}

const UID = /^[0-9A-Za-z_-]{1,100}$/;

function asItem(v: unknown, author: string, where: string): Omit<TeamItem, 'id'> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.uid !== 'string' || !UID.test(o.uid)) return 'no valid uid';
  if (!isMemoryKind(o.kind)) return `unknown kind ${JSON.stringify(o.kind)}`;
  if (typeof o.content !== 'string' || !o.content.trim()) return 'no content';
  const ts = typeof o.ts === 'string' && !Number.isNaN(Date.parse(o.ts)) ? o.ts : new Date(0).toISOString();
  const tags = Array.isArray(o.tags) ? o.tags.filter((t): t is string => typeof t === 'string' && t.length <= 100).slice(0, 20) : [];
  return {
    uid: o.uid,
    ts,
    kind: o.kind,
    content: redactSecrets(o.content).text,
    ...(tags.length && { tags }),
    ...(typeof o.hlc === 'string' && { hlc: o.hlc }),
    author,
    where,
  };
}

/** The items of one file's text, the last line for a uid winning (a teammate's later change). */
export function parseTeamFile(text: string, author: string, label: string, warnings: string[]): Map<string, Omit<TeamItem, 'id'>> {
  const out = new Map<string, Omit<TeamItem, 'id'>>();
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const where = `${label}:${i + 1}`;
    if (Buffer.byteLength(raw) > TEAM_LINE_MAX_BYTES)
      return void warnings.push(`${where}: longer than ${TEAM_LINE_MAX_BYTES / 1024} KiB (skipped)`);
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      return void warnings.push(`${where}: not valid JSON (skipped)`);
    }
    const r = asItem(v, author, where);
    if (typeof r === 'string') return void warnings.push(`${where}: ${r} (skipped)`);
    out.delete(r.uid);
    out.set(r.uid, r);
  });
  return out;
}

/** Every team item under `<root>/.aish/memory/`; a missing directory is no items and no warning. */
export function readTeamDir(root: string): TeamRead {
  const dir = teamDir(root);
  const warnings: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return { items: [], warnings };
  }
  names.sort();
  if (names.length > TEAM_MAX_FILES) {
    warnings.push(`.aish/memory: ${names.length} files, only the first ${TEAM_MAX_FILES} are read`);
    names = names.slice(0, TEAM_MAX_FILES);
  }
  const byUid = new Map<string, Omit<TeamItem, 'id'>>();
  for (const name of names) {
    const label = `.aish/memory/${name}`;
    const author = authorOfFile(name);
    if (!author) {
      warnings.push(`${label}: not a name aish writes (lowercase a-z 0-9 . _ -) — skipped`);
      continue;
    }
    const text = readBounded(join(dir, name), label, warnings);
    if (text === undefined) continue;
    for (const [uid, it] of parseTeamFile(text, author, label, warnings)) if (!byUid.has(uid)) byUid.set(uid, it);
  }
  const items = [...byUid.values()]
    .sort((a, b) => Date.parse(b.ts) - Date.parse(a.ts) || (a.uid < b.uid ? 1 : -1))
    .map((it, i) => ({ id: -(i + 1), ...it }));
  return { items, warnings };
}

function readBounded(path: string, label: string, warnings: string[]): string | undefined {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) {
      warnings.push(`${label}: not a regular file (skipped)`);
      return undefined;
    }
    size = st.size;
  } catch {
    return undefined;
  }
  if (size > TEAM_FILE_MAX_BYTES) {
    warnings.push(`${label}: ${size} bytes, over the ${TEAM_FILE_MAX_BYTES / 1024 / 1024} MiB a team file may hold (skipped)`);
    return undefined;
  }
  // readSmallFile opens without blocking and reads only a regular file (a FIFO swapped in is not read).
  const text = readSmallFile(path, TEAM_FILE_MAX_BYTES);
  if (text === undefined) warnings.push(`${label}: could not be read (skipped)`);
  return text;
}
