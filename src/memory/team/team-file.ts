/**
 * Reading the team files of a project: every `<root>/.aish/memory/*.jsonl`, one shared item per
 * line (docs/team-memory.md). A checkout is not ours: files are read with the checks sharing makes
 * when it writes them — no symbolic links (`bob.jsonl` linked to the user's own memory.jsonl would
 * list their private items as a teammate's), neither for the file nor for `.aish` or
 * `.aish/memory`; regular files only; a size cap per file and per line, a cap on how many. A file
 * or line that cannot be used is named in a warning and skipped, and nothing here throws. Secrets a teammate's line holds are redacted on
 * the way in, as they would be by :remember.
 */
import { closeSync, constants, fstatSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { openRegular, readAt } from '../../util/fs-safe';
import { lineWarnings, type LineWarning } from '../../util/line-warnings';
import { redactSecrets } from '../../util/secrets/redact';
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
  const bad: LineWarning[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    if (Buffer.byteLength(raw) > TEAM_LINE_MAX_BYTES)
      return void bad.push({ line, reason: `longer than ${TEAM_LINE_MAX_BYTES / 1024} KiB` });
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      return void bad.push({ line, reason: 'not valid JSON' });
    }
    const r = asItem(v, author, `${label}:${line}`);
    if (typeof r === 'string') return void bad.push({ line, reason: r });
    out.delete(r.uid);
    out.set(r.uid, r);
  });
  warnings.push(...lineWarnings(label, bad, { suffix: ' (skipped)' }));
  return out;
}

/** Every team item under `<root>/.aish/memory/`; a missing directory is no items and no warning. */
export function readTeamDir(root: string): TeamRead {
  const dir = teamDir(root);
  const warnings: string[] = [];
  const linked = [dirname(dir), dir].find((d) => lstatOrNull(d)?.isSymbolicLink());
  if (linked) {
    const name = linked === dir ? '.aish/memory' : '.aish';
    warnings.push(`${name}: a symbolic link — no team files read (they are read only from the project's own ${name} directory)`);
    return { items: [], warnings };
  }
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

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function readBounded(path: string, label: string, warnings: string[]): string | undefined {
  const st = lstatOrNull(path);
  if (!st) return undefined;
  if (st.isSymbolicLink()) {
    warnings.push(`${label}: a symbolic link — skipped (team files are read only as regular files in the project)`);
    return undefined;
  }
  if (!st.isFile()) {
    warnings.push(`${label}: not a regular file (skipped)`);
    return undefined;
  }
  if (st.size > TEAM_FILE_MAX_BYTES) {
    warnings.push(`${label}: ${st.size} bytes, over the ${TEAM_FILE_MAX_BYTES / 1024 / 1024} MiB a team file may hold (skipped)`);
    return undefined;
  }
  const text = readRegular(path, st.ino);
  if (text === undefined) warnings.push(`${label}: could not be read, or changed while read (skipped)`);
  return text;
}

/** A team file's text when it is a regular file (never through a link), else undefined. */
export function readTeamFileText(path: string): string | undefined {
  const st = lstatOrNull(path);
  return st?.isFile() && st.size <= TEAM_FILE_MAX_BYTES ? readRegular(path, st.ino) : undefined;
}

/**
 * The file's text, opened without following a link (O_NOFOLLOW) or waiting on a FIFO (openRegular),
 * and only when it is still the regular file lstat saw; at most TEAM_FILE_MAX_BYTES.
 */
function readRegular(path: string, ino: number): string | undefined {
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (st.ino !== ino || st.size > TEAM_FILE_MAX_BYTES) return undefined;
    return readAt(fd, 0, st.size).toString('utf8');
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
