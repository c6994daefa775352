/**
 * A session's digest: a one-line title, a short summary and the working state (where the work
 * stands), written by capture (see core/capture) as a `{"meta":{"digest":{…}}}` line appended to the
 * session log. The latest digest line wins. Digest lines are never conversation: replay and
 * summarize skip them, so no model ever reads a previous capture's answer as a turn.
 */
import { closeSync, constants, fstatSync } from 'node:fs';
import { basename } from 'node:path';
import { AishError, errnoCode } from '../util/errors';
import { appendWholeLines, describeFsError, openRegular } from '../util/fs-safe';
import { oneLine, stripControls } from '../util/text';

/** Where the work stands, in fixed fields (rendered as Markdown for `:session` and the [session] block). */
export interface WorkingState {
  goal: string;
  /** What is done and what is in progress. */
  current: string;
  decisions: string[];
  openQuestions: string[];
  nextSteps: string[];
  filesTouched: string[];
}

export interface SessionDigest {
  /** ISO time the digest was made. */
  ts: string;
  /** One line, ≤ 80 characters. */
  title?: string;
  /** A few sentences. */
  summary?: string;
  state?: WorkingState;
  /** User turns in the log when the digest was made (so a later capture knows what is new). */
  userTurns?: number;
}

/** How every digest line starts as written (listSessions finds digests past its 64 KB head by this). */
export const DIGEST_LINE_PREFIX = '{"meta":{"digest"';

const STATE_TEXT = ['goal', 'current'] as const;
const STATE_LISTS = ['decisions', 'openQuestions', 'nextSteps', 'filesTouched'] as const;
const TITLE_MAX = 80;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A usable digest from a parsed `meta.digest` value, or why it is not one. Digests come from a
 * model's answer and from hand edits, so fields are coerced where the meaning is clear (a number
 * to a string, one string to a list of one) and unknown fields are dropped; only a missing ts or a
 * field of the wrong shape makes the whole digest unusable.
 */
export function checkDigest(v: unknown): SessionDigest | string {
  if (!isObject(v)) return 'digest is not a JSON object';
  if (typeof v.ts !== 'string' || v.ts === '') return 'digest without ts';
  const out: SessionDigest = { ts: v.ts };
  if (v.title !== undefined && v.title !== null) {
    if (typeof v.title !== 'string') return 'digest title must be a string';
    const title = oneLine(v.title, TITLE_MAX);
    if (title) out.title = title;
  }
  if (v.summary !== undefined && v.summary !== null) {
    if (typeof v.summary !== 'string') return 'digest summary must be a string';
    const summary = stripControls(v.summary).trim();
    if (summary) out.summary = summary;
  }
  if (v.state !== undefined && v.state !== null) {
    const state = checkState(v.state);
    if (typeof state === 'string') return state;
    out.state = state;
  }
  if (v.userTurns !== undefined && v.userTurns !== null) {
    if (!Number.isSafeInteger(v.userTurns) || (v.userTurns as number) < 0) return 'digest userTurns must be a whole number ≥ 0';
    out.userTurns = v.userTurns as number;
  }
  return out;
}

function checkState(v: unknown): WorkingState | string {
  if (!isObject(v)) return 'digest state is not a JSON object';
  const state = blankState();
  for (const k of STATE_TEXT) {
    const s = v[k] === undefined || v[k] === null ? '' : scalarText(v[k]);
    if (s === undefined) return `digest state.${k} must be a string`;
    state[k] = s;
  }
  for (const k of STATE_LISTS) {
    const raw = v[k];
    const items = raw === undefined || raw === null ? [] : Array.isArray(raw) ? raw : [raw];
    const texts = items.map(scalarText);
    if (texts.some((t) => t === undefined)) return `digest state.${k} must be a list of strings`;
    state[k] = (texts as string[]).filter((t) => t !== '');
  }
  return state;
}

/** Strings (controls dropped, trimmed), numbers and booleans as text; anything else is not text. */
function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return stripControls(v).trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The record as it is written: `{"meta":{"digest":{…}}}`, fields in a fixed order. */
export function digestRecord(d: SessionDigest): { meta: { digest: SessionDigest } } {
  const digest: SessionDigest = {
    ts: d.ts,
    ...(d.title !== undefined && { title: d.title }),
    ...(d.summary !== undefined && { summary: d.summary }),
    ...(d.state !== undefined && {
      state: {
        goal: d.state.goal,
        current: d.state.current,
        decisions: d.state.decisions,
        openQuestions: d.state.openQuestions,
        nextSteps: d.state.nextSteps,
        filesTouched: d.state.filesTouched,
      },
    }),
    ...(d.userTurns !== undefined && { userTurns: d.userTurns }),
  };
  return { meta: { digest } };
}

/**
 * Append one digest line to an existing session log and sync it. The log is never created: a
 * digest without its session means nothing, and an empty file would read the digest as its header.
 * A torn last line is closed off first (appendWholeLines), so the digest starts on a fresh line.
 */
export function appendDigest(path: string, d: SessionDigest): void {
  const name = basename(path, '.jsonl');
  const checked = checkDigest(d);
  if (typeof checked === 'string') throw new AishError(`cannot add a digest to session "${name}": ${checked}`);
  let fd: number;
  try {
    fd = openRegular(path, constants.O_RDWR | constants.O_APPEND); // no O_CREAT; a FIFO is refused, never waited on
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') throw new AishError(`no session "${name}"`);
    throw new AishError(`cannot open session log ${path}: ${describeFsError(err)}`);
  }
  try {
    if (fstatSync(fd).size === 0) throw new AishError(`cannot add a digest to session "${name}": the log has no header`);
    appendWholeLines(fd, JSON.stringify(digestRecord(checked)) + '\n');
  } catch (err) {
    if (err instanceof AishError) throw err;
    throw new AishError(`cannot write session log ${path}: ${describeFsError(err)}`);
  } finally {
    closeSync(fd);
  }
}

const LIST_HEADINGS: ReadonlyArray<[(typeof STATE_LISTS)[number], string]> = [
  ['decisions', 'Decisions'],
  ['openQuestions', 'Open questions'],
  ['nextSteps', 'Next steps'],
  ['filesTouched', 'Files touched'],
];

/**
 * Markdown for `:session` and the [session] block; empty fields are left out. `screen`: goal and
 * current state as paragraphs of their own, since a renderer joins consecutive lines into one.
 */
export function renderWorkingState(s: WorkingState, opts: { screen?: boolean } = {}): string {
  const blocks: string[] = [];
  const head: string[] = [];
  if (s.goal.trim()) head.push(`**Goal:** ${flatten(s.goal)}`);
  if (s.current.trim()) head.push(`**Current state:** ${flatten(s.current)}`);
  if (head.length) blocks.push(head.join(opts.screen ? '\n\n' : '\n'));
  for (const [k, heading] of LIST_HEADINGS) {
    const items = s[k].map(flatten).filter((t) => t !== '');
    if (items.length) blocks.push([`**${heading}:**`, ...items.map((t) => `- ${t}`)].join('\n'));
  }
  return blocks.join('\n\n');
}

/** One line, so an item cannot break out of its list entry. */
function flatten(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function blankState(): WorkingState {
  return { goal: '', current: '', decisions: [], openQuestions: [], nextSteps: [], filesTouched: [] };
}

/** Anything in it at all. */
export function hasState(s: WorkingState): boolean {
  return Boolean(s.goal || s.current || s.decisions.length || s.openQuestions.length || s.nextSteps.length || s.filesTouched.length);
}
