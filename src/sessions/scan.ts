/**
 * What `listSessions` shows of one log, without parsing all of it: lines in the first 64 KB are
 * parsed and validated; past that, lines are counted with a buffer scan, and digest lines are
 * recognised by how they start (`{"meta":{"digest"`), so only the latest ones are ever parsed. A
 * hundred sessions of a megabyte each list in a blink; a digest at the end of a 10 MB log is found.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { oneLine } from '../util/text';
import { DIGEST_LINE_PREFIX, type SessionDigest } from './digest';
import { classifyRecord, parseJson } from './records';
import { rewindTurns } from './rewind';
import type { SessionInfo, Turn } from './types';

/** listSessions reads at most this much of each file as text. */
const HEAD_BYTES = 64 * 1024;
/** A digest line longer than this is not one aish wrote; reading it would slow the listing. */
const MAX_DIGEST_LINE = 1024 * 1024;
const PREFIX = Buffer.from(DIGEST_LINE_PREFIX, 'utf8');
/** `{"meta":{` — no meta-object line past line 1 is a turn, digest or not. */
const META_LEN = '{"meta":{'.length;

/** Bytes of a line past 64 KB looked at to tell its role (the writer puts `role` right after `ts`). */
const LINE_HEAD = 160;
const USER = Buffer.from('"role":"user"', 'utf8');
const ASSISTANT = Buffer.from('"role":"assistant"', 'utf8');
const FAILED = Buffer.from('"meta":"error"', 'utf8');

/** What the scan fills in of a listed session (the rest comes from the file's name and stat). */
export type ScanResult = Pick<SessionInfo, 'turns' | 'answered' | 'oneshot' | 'rewoundToStart' | 'firstPrompt' | 'title' | 'summary'>;

export function scanSession(path: string, size: number): ScanResult {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(size, HEAD_BYTES));
    const got = readFull(fd, buf, 0);
    const whole = got >= size;
    const headEnd = whole ? got : buf.lastIndexOf(0x0a, got - 1) + 1;
    const head = loadText(buf.toString('utf8', 0, headEnd));
    let turns = head.turns.filter((t) => t.role === 'user').length;
    let answered = head.turns.some((t) => t.role === 'assistant' && t.meta !== 'error');
    let digest = head.digest;
    if (!whole) {
      const tail = scanTail(fd, buf, headEnd);
      turns += tail.user;
      answered ||= tail.answered;
      digest = latestDigest(fd, tail.digests) ?? digest;
    }
    const firstPrompt = promptOf(head.turns.find((t) => t.role === 'user' && !t.meta) ?? head.turns.find((t) => t.role === 'user'));
    return {
      turns,
      answered,
      ...(head.oneshot && { oneshot: true }),
      ...(head.rewound && !answered && { rewoundToStart: true }),
      ...(firstPrompt && { firstPrompt }),
      ...(digest?.title && { title: digest.title }),
      ...(digest?.summary && { summary: digest.summary }),
    };
  } finally {
    closeSync(fd);
  }
}

/** The user's own words: what they typed, not the `!cmd` output or Norris wrapper around it. */
function promptOf(t: Turn | undefined): string | undefined {
  if (!t) return undefined;
  const words = t.typed ?? t.content;
  if (typeof words !== 'string') return undefined;
  return oneLine(t.meta === 'norris' ? `norris: ${words.replace(/^Goal:\s*/, '').split('\n')[0]}` : words, 80) || undefined;
}

function loadText(text: string): { turns: Turn[]; digest?: SessionDigest; oneshot: boolean; rewound: boolean } {
  const turns: Turn[] = [];
  let digest: SessionDigest | undefined;
  let oneshot = false;
  let rewound = false;
  text.split('\n').forEach((line, i) => {
    const p = line.trim() === '' ? undefined : parseJson(line);
    if (!p?.ok) return;
    const r = classifyRecord(p.value, i === 0);
    if (r.kind === 'turn') turns.push(r.turn);
    else if (r.kind === 'rewind') {
      turns.length = rewindTurns(turns, r.rewind.exchanges).kept.length; // a prefix
      rewound = true;
    } else if (r.kind === 'digest') digest = r.digest;
    else if (r.kind === 'header') oneshot = r.meta.oneshot === true;
  });
  return { turns, oneshot, rewound, ...(digest && { digest }) };
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

/**
 * From `start` (a line start) to the end of the file: newline-terminated turn lines are told apart
 * by their first bytes — user prompts counted, an answer that did not fail noted (an unterminated
 * last line is taken as torn); digest lines are noted as [start, end) offsets, the unterminated
 * last one too (it may be whole).
 */
function scanTail(fd: number, buf: Buffer, start: number): { user: number; answered: boolean; digests: Array<[number, number]> } {
  let user = 0;
  let answered = false;
  const small = Buffer.allocUnsafe(LINE_HEAD);
  const digests: Array<[number, number]> = [];
  let pos = start;
  let lineStart = start;
  // How many leading bytes of the current line match PREFIX; `open` while they still may.
  let matched = 0;
  let open = true;
  for (;;) {
    const n = readFull(fd, buf, pos);
    if (n === 0) break;
    let from = 0;
    for (;;) {
      const found = buf.indexOf(0x0a, from);
      const end = found === -1 || found >= n ? n : found; // bytes past n are stale
      while (open && matched < PREFIX.length) {
        const at = lineStart + matched - pos; // where the line's next unmatched byte is in buf
        if (at >= end) break;
        if (buf[at] !== PREFIX[matched]) open = false;
        else matched++;
      }
      if (end === n) break;
      const lineEnd = pos + end;
      if (lineEnd > lineStart) {
        if (matched === PREFIX.length) digests.push([lineStart, lineEnd]);
        else if (matched < META_LEN) {
          // The line's first bytes: in this chunk, or (a line begun in an earlier one) read again.
          const len = Math.min(LINE_HEAD, lineEnd - lineStart);
          const lineHead =
            lineStart >= pos
              ? buf.subarray(lineStart - pos, lineStart - pos + len)
              : small.subarray(0, readSync(fd, small, 0, len, lineStart));
          if (lineHead.includes(USER)) user++;
          else if (!answered && lineHead.includes(ASSISTANT) && !lineHead.includes(FAILED)) answered = true;
        }
      }
      lineStart = lineEnd + 1;
      matched = 0;
      open = true;
      from = end + 1;
    }
    pos += n;
  }
  if (pos > lineStart && matched === PREFIX.length) digests.push([lineStart, pos]);
  return { user, answered, digests };
}

/** The latest of the noted digest lines that is valid; each is read only when the later ones were not. */
function latestDigest(fd: number, at: ReadonlyArray<[number, number]>): SessionDigest | undefined {
  for (let i = at.length - 1; i >= 0; i--) {
    const [start, end] = at[i]!;
    if (end - start > MAX_DIGEST_LINE) continue;
    const line = Buffer.allocUnsafe(end - start);
    if (readFull(fd, line, start) < line.length) continue;
    const p = parseJson(line.toString('utf8'));
    if (!p.ok) continue;
    const r = classifyRecord(p.value, false);
    if (r.kind === 'digest') return r.digest;
  }
  return undefined;
}
