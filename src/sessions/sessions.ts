/**
 * Reading session logs: load one for :resume, list them for :sessions, resolve a name.
 * Reading never throws on content — a log may be torn by a crash or edited by hand — only when the
 * file itself cannot be read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { AishError, errnoCode, UsageError } from '../util/errors';
import { isFile } from '../util/fs-safe';
import { closest } from '../util/suggest';
import { classifyRecord, parseJson } from './records';
import { rewindTurns } from './rewind';
import { scanSession } from './scan';
import type { LoadedSession, SessionInfo } from './types';

export const SESSION_EXT = '.jsonl';
const NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;
/** `YYYYMMDD-HHMMSS-<pid>`, plus `-N` when two logs were created in the same second by one pid. */
const AUTO_ID_RE = /^\d{8}-\d{6}-\d+(?:-\d+)?$/;
const TORN = 'incomplete last line (an interrupted write?)';

export function isAutoSessionId(name: string): boolean {
  return AUTO_ID_RE.test(name);
}

/** `<dir>/foo.jsonl` → `foo`. */
export function sessionName(path: string): string {
  return basename(path, SESSION_EXT);
}

/** Names become file names: no separators, no hidden files, nothing the shell or a path could misread. */
export function validateSessionName(name: string): string {
  if (NAME_RE.test(name) && !name.startsWith('.')) return name;
  // JSON quoting keeps the message on one line whatever the name holds.
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
  throw new UsageError(`invalid session name ${shown} — use letters, digits, '.', '_' or '-' (no paths)`);
}

export function loadSession(path: string): LoadedSession {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const name = sessionName(path);
    if (errnoCode(err) === 'ENOENT') throw new AishError(`no session "${name}"`);
    throw new AishError(`cannot read session "${name}": ${errnoCode(err) ?? (err as Error).message}`);
  }
  const out: LoadedSession = { path, meta: null, turns: [], warnings: [] };
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete || text === '') lines.pop(); // the empty string after the final newline
  lines.forEach((line, i) => {
    if (line.trim() === '') return; // blank lines (hand edits) carry nothing
    const n = i + 1;
    const parsed = parseJson(line);
    if (!parsed.ok) {
      const torn = !complete && i === lines.length - 1;
      out.warnings.push({ line: n, reason: torn ? TORN : 'not valid JSON' });
      return;
    }
    const r = classifyRecord(parsed.value, i === 0);
    if (r.kind === 'header') out.meta = r.meta;
    else if (r.kind === 'turn') out.turns.push(r.turn);
    else if (r.kind === 'digest')
      out.digest = r.digest; // the latest valid one wins
    else if (r.kind === 'rewind') out.turns = rewindTurns(out.turns, r.rewind.exchanges).kept;
    else out.warnings.push({ line: n, reason: r.reason });
  });
  return out;
}

/** Worth showing by default: answered at least once, and not a one-shot `-p` / `--norris` run. */
export function listable(s: SessionInfo): boolean {
  return s.answered && !s.oneshot;
}

/** Every `*.jsonl` with a valid name, newest first. A missing directory has no sessions. */
export function listSessions(sessionsDir: string): SessionInfo[] {
  const out: SessionInfo[] = [];
  for (const name of sessionNames(sessionsDir)) {
    const path = join(sessionsDir, name + SESSION_EXT);
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      out.push({ name, path, named: !isAutoSessionId(name), mtimeMs: st.mtimeMs, ...scanSession(path, st.size) });
    } catch {
      // Removed between readdir and stat, or unreadable: not listable, not fatal.
    }
  }
  // Ties (same mtime) fall back to the name: automatic ids sort chronologically.
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/** Names of the `*.jsonl` files :resume accepts, in directory order. A missing directory has none. */
export function sessionNames(sessionsDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(sessionsDir);
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new AishError(`cannot read ${sessionsDir}: ${code ?? (err as Error).message}`);
  }
  return entries
    .filter((f) => f.endsWith(SESSION_EXT))
    .map((f) => f.slice(0, -SESSION_EXT.length))
    .filter((n) => NAME_RE.test(n) && !n.startsWith('.')); // only names :resume accepts
}

/** `listHint`: where the user sees the names (`:sessions` in the REPL, `aish sessions list` in the shell). */
export function resolveSession(sessionsDir: string, nameOrId: string, listHint = ':sessions'): string {
  const name = validateSessionName(nameOrId);
  const path = join(sessionsDir, name + SESSION_EXT);
  if (isFile(path)) return path;
  // Newest first, so a prefix of several ids suggests the most recent one.
  const names = listSessions(sessionsDir).map((s) => s.name);
  const hint = closest(name, names);
  throw new AishError(`no session "${name}"${hint ? ` (did you mean ${hint}?)` : ''} — see ${listHint}`);
}

/**
 * `aish -c`'s session: the newest one `aish sessions list` shows (answered, not a one-shot run) —
 * unless a newer one was rewound to its start: the last conversation was emptied, and an older one
 * from elsewhere is not what "continue" meant, so there is nothing to continue (undefined).
 */
export function latestListedSession(sessionsDir: string): SessionInfo | undefined {
  const s = listSessions(sessionsDir).find((x) => listable(x) || (x.rewoundToStart === true && !x.oneshot));
  return s && listable(s) ? s : undefined;
}

/** The most recent session with at least one turn, other than `exclude` (the current log). */
export function latestSession(sessionsDir: string, exclude?: string): SessionInfo | undefined {
  const skip = exclude === undefined ? undefined : resolve(exclude);
  return listSessions(sessionsDir).find((s) => s.answered && resolve(s.path) !== skip);
}
