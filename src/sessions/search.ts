/**
 * Searching past session logs ("what did we decide about X last week"): every turn of every log
 * in the sessions directory, matched on `util/terms` (the query and the turns cut the same way, so
 * "databases" finds "database"), ranked by how many distinct query terms a turn has, then newest
 * first; each session's latest digest (title and summary) is matched too, as one `summary` hit.
 * Files are read in chunks, line by line, and only the best hits so far are kept, so a thousand
 * long sessions are never in memory at once. Like the other readers it never throws on
 * content: torn or hand-broken lines are skipped.
 */
import { closeSync, constants, readSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../util/errors';
import { openRegular } from '../util/fs-safe';
import { terms } from '../util/terms';
import { terminalSafe } from '../util/terminal-safe';
import type { SessionDigest } from './digest';
import { classifyRecord, parseJson, type LogRecord } from './records';
import { isAutoSessionId, SESSION_EXT, sessionNames } from './sessions';
import type { Role } from './types';

export interface SessionHit {
  /** The session's name, as `aish sessions list` shows it. */
  session: string;
  path: string;
  /** The turn's ISO time. */
  ts: string;
  /** `summary`: the session's latest digest (title and summary) matched, not a turn. */
  role: Exclude<Role, 'system'> | 'summary';
  /** One line around the first match, no control characters, the matching word whole. */
  snippet: string;
  /** Distinct query terms the turn contains. */
  score: number;
}

const DEFAULT_SEARCH_LIMIT = 20;
const SNIPPET_CHARS = 120;
/** Text looked at on each side of the match before it is cleaned and cut to the snippet. */
const SNIPPET_WINDOW = 400;
const CHUNK = 64 * 1024;
const WORD = /[\p{L}\p{N}]+/gu;

/** The query's distinct terms; a query with none (empty, or only stop words) is refused. */
function queryTerms(query: string): Set<string> {
  const wanted = new Set(terms(query));
  if (wanted.size > 0) return wanted;
  if (!query.trim()) throw new UsageError('nothing to search for — give a word to look for');
  throw new UsageError(
    `nothing to search for in ${JSON.stringify(query.trim().slice(0, 60))} — common words are skipped; try a more specific one`,
  );
}

/** The best `limit` turns (default 20) of all session logs that contain any term of `query`. */
export function searchSessions(sessionsDir: string, query: string, opts: { limit?: number } = {}): SessionHit[] {
  const wanted = queryTerms(query);
  const limit = Math.max(1, Math.floor(opts.limit ?? DEFAULT_SEARCH_LIMIT));
  let best: SessionHit[] = [];
  // `:save`, `:fork` and every resume copy the turns they carry into another log, time and all:
  // one turn is one hit, named by the copy most worth naming.
  let seen = new Map<string, number>();
  const add = (hit: SessionHit) => {
    const key = `${hit.ts}\0${hit.role}\0${hit.snippet}`;
    const at = seen.get(key);
    if (at === undefined) seen.set(key, best.push(hit) - 1);
    else if (preferred(hit.session, best[at]!.session)) best[at] = hit;
  };
  for (const session of sessionNames(sessionsDir)) {
    const path = join(sessionsDir, session + SESSION_EXT);
    let digest: SessionDigest | undefined;
    forEachLine(path, (line) => {
      const rec = parseRecord(line);
      if (rec?.kind === 'digest') digest = rec.digest; // only the latest one is searched
      if (rec?.kind !== 'turn') return;
      const turn = rec.turn;
      if (turn.role === 'system' || typeof turn.content !== 'string') return;
      const score = scoreOf(turn.content, wanted);
      if (score === 0) return;
      add({ session, path, ts: turn.ts, role: turn.role, snippet: snippet(turn.content, wanted), score });
      // Trim now and then, not on every hit: memory stays bounded and sorting stays rare.
      if (best.length >= limit * 4 + 64) {
        best = rank(best).slice(0, limit);
        seen = new Map(best.map((h, i) => [`${h.ts}\0${h.role}\0${h.snippet}`, i]));
      }
    });
    const hit = digest && digestHit(digest, wanted);
    if (hit) add({ session, path, ...hit });
  }
  return rank(best).slice(0, limit);
}

/** Of two copies of a turn, the one to name: a name given with `:save`/`:fork`, else the newer log (ids sort by time). */
function preferred(a: string, b: string): boolean {
  const named = (n: string) => !isAutoSessionId(n);
  if (named(a) !== named(b)) return named(a);
  return named(a) ? a < b : a > b;
}

function scoreOf(text: string, wanted: ReadonlySet<string>): number {
  const have = new Set(terms(text));
  let score = 0;
  for (const t of wanted) if (have.has(t)) score++;
  return score;
}

/** The digest's title and summary as one hit; the snippet comes from the summary when it matches. */
function digestHit(d: SessionDigest, wanted: ReadonlySet<string>): Omit<SessionHit, 'session' | 'path'> | undefined {
  const score = scoreOf(`${d.title ?? ''}\n${d.summary ?? ''}`, wanted);
  if (score === 0) return undefined;
  const from = d.summary && firstMatch(d.summary, wanted) ? d.summary : (d.title ?? d.summary ?? '');
  return { ts: d.ts, role: 'summary', snippet: snippet(from, wanted), score };
}

/** More distinct terms first, then newer first (an unreadable time sorts last). */
function rank(hits: SessionHit[]): SessionHit[] {
  const time = (h: SessionHit) => {
    const t = Date.parse(h.ts);
    return Number.isNaN(t) ? -Infinity : t;
  };
  return hits.sort((a, b) => b.score - a.score || time(b) - time(a) || (a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0));
}

/** What the line is; undefined for blank, torn or malformed lines. The header reads as a bad record. */
function parseRecord(line: string): LogRecord | undefined {
  if (!line.trim()) return undefined;
  const p = parseJson(line);
  return p.ok ? classifyRecord(p.value, false) : undefined;
}

/**
 * Each line of the file, read a chunk at a time (a torn last line is passed on too; it fails to
 * parse). A file that vanished or cannot be read has no lines.
 */
function forEachLine(path: string, fn: (line: string) => void): void {
  let fd: number;
  try {
    // A FIFO named like a log is skipped without waiting for a writer.
    fd = openRegular(path, constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let pending: Buffer[] = [];
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, CHUNK, null);
      } catch {
        return;
      }
      if (n === 0) break;
      let from = 0;
      for (let nl = buf.indexOf(0x0a, 0); nl !== -1 && nl < n; nl = buf.indexOf(0x0a, nl + 1)) {
        pending.push(buf.subarray(from, nl));
        fn(Buffer.concat(pending).toString('utf8'));
        pending = [];
        from = nl + 1;
      }
      if (from < n) pending.push(Buffer.from(buf.subarray(from, n))); // a copy: buf is reused
    }
    if (pending.length) fn(Buffer.concat(pending).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

/** About 120 characters around the first word whose term is wanted, on one line. */
export function snippet(text: string, wanted: ReadonlySet<string>): string {
  const at = firstMatch(text, wanted);
  if (!at) return cut(flat(text.slice(0, SNIPPET_WINDOW * 2)), SNIPPET_CHARS);
  const word = Array.from(text.slice(at.start, at.end));
  const before = Array.from(flat(text.slice(safeIndex(text, at.start - SNIPPET_WINDOW), at.start)));
  const after = Array.from(flat(text.slice(at.end, safeIndex(text, at.end + SNIPPET_WINDOW))));
  const room = Math.max(0, SNIPPET_CHARS - word.length);
  // A third of the room before the match, unless one side has less than its share.
  let nBefore = Math.min(before.length, Math.max(Math.floor(room / 3), room - after.length));
  const nAfter = Math.min(after.length, room - nBefore);
  nBefore = Math.min(before.length, room - nAfter);
  const head = before.slice(before.length - nBefore).join('');
  const tail = after.slice(0, nAfter).join('');
  const out = `${nBefore < before.length ? '…' : ''}${head}${word.join('')}${tail}${nAfter < after.length ? '…' : ''}`;
  return out.trim().replace(/^… /, '…').replace(/ …$/, '…');
}

/** The first word of `text` whose term is one of `wanted` (found on the text itself, so offsets hold). */
function firstMatch(text: string, wanted: ReadonlySet<string>): { start: number; end: number } | undefined {
  for (const m of text.matchAll(WORD)) {
    if (terms(m[0]).some((t) => wanted.has(t))) return { start: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

/** Escape sequences and controls gone, all white space one space. */
function flat(s: string): string {
  return terminalSafe(s).replace(/\s+/g, ' ');
}

function cut(s: string, max: number): string {
  const chars = Array.from(s.trim());
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** `i` clamped to the text and moved off the middle of a surrogate pair. */
function safeIndex(text: string, i: number): number {
  const j = Math.min(text.length, Math.max(0, i));
  const c = text.charCodeAt(j);
  return c >= 0xdc00 && c <= 0xdfff ? j + 1 : j;
}
