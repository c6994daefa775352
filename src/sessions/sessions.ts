/**
 * Reading session logs: load one for :resume, list them for :sessions, resolve a name.
 * Reading never throws on content — a log may be torn by a crash or edited by hand — only when the
 * file itself cannot be read.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { AishError, errnoCode, UsageError } from '../util/errors';
import { closest } from '../util/suggest';
import { oneLine } from '../util/text';
import type { LoadedSession, Role, SessionInfo, SessionMeta, ToolCallRecord, Turn } from './types';

export const SESSION_EXT = '.jsonl';
const NAME_RE = /^[A-Za-z0-9._-]{1,100}$/;
/** `YYYYMMDD-HHMMSS-<pid>`, plus `-N` when two logs were created in the same second by one pid. */
const AUTO_ID_RE = /^\d{8}-\d{6}-\d+(?:-\d+)?$/;
const ROLES: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool']);
const TORN = 'incomplete last line (an interrupted write?)';
/** listSessions reads at most this much of each file as text (a hundred sessions must list in a blink). */
const HEAD_BYTES = 64 * 1024;

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

/** Fields in the order the writer uses, unknown ones dropped: a copied turn is byte-identical to a written one. */
export function orderTurn(t: Turn): Turn {
  return {
    ts: t.ts,
    role: t.role,
    content: t.content,
    ...(t.meta !== undefined && { meta: t.meta }),
    ...(t.tool_calls !== undefined && { tool_calls: t.tool_calls }),
    ...(t.tool_call_id !== undefined && { tool_call_id: t.tool_call_id }),
    ...(t.recall !== undefined && { recall: t.recall }),
  };
}

/** A turn, or the reason the value is not one. Null content only for assistant turns, as the API allows. */
export function checkTurn(v: unknown): Turn | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (typeof r.role !== 'string' || !ROLES.has(r.role)) return `unknown role ${JSON.stringify(r.role ?? null)}`;
  const role = r.role as Role;
  if (typeof r.ts !== 'string') return 'missing ts';
  if (!(typeof r.content === 'string' || (r.content === null && role === 'assistant')))
    return role === 'assistant' ? 'content must be a string or null' : `content must be a string for role ${role}`;
  if (r.meta !== undefined && typeof r.meta !== 'string') return 'meta must be a string';
  if (r.tool_calls !== undefined && !(Array.isArray(r.tool_calls) && r.tool_calls.every(isToolCall)))
    return 'malformed tool_calls';
  if (r.tool_call_id !== undefined && typeof r.tool_call_id !== 'string') return 'tool_call_id must be a string';
  if (role === 'tool' && r.tool_call_id === undefined) return 'tool turn without tool_call_id';
  if (r.recall !== undefined && !(Array.isArray(r.recall) && r.recall.every((id) => Number.isSafeInteger(id) && id >= 1))) return 'recall must be a list of memory ids';
  return orderTurn(r as unknown as Turn);
}

function isToolCall(v: unknown): v is ToolCallRecord {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  const f = c.function as Record<string, unknown> | null | undefined;
  return (
    typeof c.id === 'string' &&
    c.type === 'function' &&
    typeof f === 'object' &&
    f !== null &&
    typeof f.name === 'string' &&
    typeof f.arguments === 'string'
  );
}

function parseJson(line: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return { ok: false };
  }
}

function headerOf(v: unknown): SessionMeta | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || !('meta' in v)) return undefined;
  const m = (v as { meta: unknown }).meta;
  return typeof m === 'object' && m !== null && !Array.isArray(m) ? (m as SessionMeta) : undefined;
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
    const header = i === 0 ? headerOf(parsed.value) : undefined;
    if (header) {
      out.meta = header;
      return;
    }
    const turn = checkTurn(parsed.value);
    if (typeof turn === 'string') out.warnings.push({ line: n, reason: turn });
    else out.turns.push(turn);
  });
  return out;
}

/** Every `*.jsonl` with a valid name, newest first. A missing directory has no sessions. */
export function listSessions(sessionsDir: string): SessionInfo[] {
  const out: SessionInfo[] = [];
  for (const name of sessionNames(sessionsDir)) {
    const path = join(sessionsDir, name + SESSION_EXT);
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      out.push({ name, path, named: !isAutoSessionId(name), mtimeMs: st.mtimeMs, ...scan(path, st.size) });
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

/**
 * Turn count and first prompt without parsing the whole file: lines in the first 64 KB are parsed
 * and validated; past that, non-blank newline-terminated lines are counted with a buffer scan (an
 * unterminated last line out there is taken as torn).
 */
function scan(path: string, size: number): { turns: number; firstPrompt?: string } {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(size, HEAD_BYTES));
    const got = readFull(fd, buf, 0);
    const whole = got >= size;
    const headEnd = whole ? got : buf.lastIndexOf(0x0a, got - 1) + 1;
    const head = loadText(buf.toString('utf8', 0, headEnd));
    let turns = head.turns.length;
    if (!whole) turns += countLines(fd, buf, headEnd);
    const user = head.turns.find((t) => t.role === 'user' && !t.meta) ?? head.turns.find((t) => t.role === 'user');
    const firstPrompt = typeof user?.content === 'string' ? oneLine(user.content, 80) : undefined;
    return { turns, ...(firstPrompt && { firstPrompt }) };
  } finally {
    closeSync(fd);
  }
}

function loadText(text: string): { turns: Turn[] } {
  const turns: Turn[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const p = line.trim() === '' ? undefined : parseJson(line);
    if (!p?.ok || (i === 0 && headerOf(p.value))) return;
    const t = checkTurn(p.value);
    if (typeof t !== 'string') turns.push(t);
  });
  return { turns };
}

function readFull(fd: number, buf: Buffer, pos: number): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

/** Non-blank newline-terminated lines from `start` (a line start) to the end of the file. */
function countLines(fd: number, buf: Buffer, start: number): number {
  let count = 0;
  let pos = start;
  let lineLen = 0;
  for (;;) {
    const n = readFull(fd, buf, pos);
    if (n === 0) return count;
    let from = 0;
    for (let nl = buf.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = buf.indexOf(0x0a, nl + 1)) {
      if (lineLen + nl - from > 0) count++;
      lineLen = 0;
      from = nl + 1;
    }
    lineLen += n - from;
    pos += n;
  }
}


export function resolveSession(sessionsDir: string, nameOrId: string): string {
  const name = validateSessionName(nameOrId);
  const path = join(sessionsDir, name + SESSION_EXT);
  if (isFile(path)) return path;
  // Newest first, so a prefix of several ids suggests the most recent one.
  const names = listSessions(sessionsDir).map((s) => s.name);
  const hint = closest(name, names);
  throw new AishError(`no session "${name}"${hint ? ` (did you mean ${hint}?)` : ''} — see :sessions`);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The most recent session with at least one turn, other than `exclude` (the current log). */
export function latestSession(sessionsDir: string, exclude?: string): SessionInfo | undefined {
  const skip = exclude === undefined ? undefined : resolve(exclude);
  return listSessions(sessionsDir).find((s) => s.turns > 0 && resolve(s.path) !== skip);
}
