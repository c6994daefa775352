/**
 * What a memory verb needs of the door it was called through (`:memory …` in the REPL, `aish memory …`
 * on the command line), what it shows, and how each door's words turn into a verb's arguments.
 */
import { basename } from 'node:path';
import type { ListHint, OpResult } from '../memory/ops';
import type { Changed, MemoryService } from '../memory/service';
import { isMemoryKind, parseMemoryId, type MemoryItem, type MemoryKind } from '../memory/types';
import { plural } from '../util/time';
import { UsageError } from '../util/errors';
import { escapeForJson } from '../util/output-filter';
import { afterWords } from './types';

/** A line a verb shows: `info` and `rows` to stdout (the REPL: its scrollback), `warn` to stderr. */
export interface Line {
  kind: 'info' | 'warn' | 'rows';
  text: string;
}

/** JSON to print: a (possibly huge) array written a batch at a time, or one value. */
export type JsonOut = { items: Iterable<MemoryItem>; shape: (item: MemoryItem) => object } | { value: unknown; compact?: boolean };

/** What a verb shows; `error`, when set, is said last, as the failure (exit 1; `✗` in the REPL). */
export interface Shown {
  lines: Line[];
  json?: JsonOut;
  error?: string;
}

export interface Door {
  /** The REPL (`:memory`), else the command line (`aish memory`): the words differ, not the result. */
  repl: boolean;
  cmd: ':memory' | 'aish memory';
  /** memory.jsonl, as the door names it in messages. */
  path: string;
  /** A person is there to answer. */
  interactive: boolean;
  ask(question: string): Promise<boolean>;
  print(line: Line): void;
  /** The prompt `plan` plans for when given no text (the command line reads it from the session log). */
  lastPrompt(): string | null | Promise<string | null>;
  /** Rows a screen holds (the REPL's list pages by it). */
  pageLines?: number;
  /** Rows cut to the terminal's width (the command line, on a terminal). */
  fit?: { width: number; cut: (text: string, width: number) => string };
}

/**
 * A positional parameter (`KIND`, `TEXT`: `rest` takes the words after it) or a flag (`--json`;
 * `value`: the value it takes, `<n>`); `door`: only in that one.
 */
export interface Param {
  name: string;
  help: string;
  rest?: boolean;
  optional?: boolean;
  value?: string;
  door?: 'repl' | 'cli';
}
type Flag = Param;

/** What a verb is called with: its name, the REPL's synopsis, its parameters and flags. */
export interface Syntax {
  name: string;
  args?: string;
  params: readonly Param[];
  flags: readonly Flag[];
}

/** A verb's arguments, from either door: positional words, the text after them, and the flags given. */
export interface Args {
  words: string[];
  /** The rest parameter's words, their spacing kept (REPL) or joined by spaces (command line). */
  text: string;
  flags: ReadonlyMap<string, string | true>;
}

export function parseKind(raw: string | undefined): MemoryKind {
  if (raw && isMemoryKind(raw)) return raw;
  throw new UsageError(`${raw ? `unknown kind "${raw}"` : 'missing kind'} — use fact, pref or context`);
}

export function parseId(raw: string | undefined, hint: ListHint): number {
  const id = parseMemoryId(raw);
  if (id === undefined)
    throw new UsageError(`${raw ? `"${raw}" is not a memory id` : 'missing id'} — ids are whole numbers ≥ 1 (see ${hint})`);
  return id;
}

export function parseText(text: string, usage: string): string {
  const t = text.trim();
  if (!t) throw new UsageError(`nothing to remember — ${usage}`);
  return t;
}

export const info = (text: string): Line => ({ kind: 'info', text });
export const warnLine = (text: string): Line => ({ kind: 'warn', text });

/**
 * `:memory VERB REST`: flags anywhere, but for a verb that takes text, only before it (the text's own
 * words are never taken for flags). An unknown `--flag` where flags go is refused.
 */
export function replArgs(v: Syntax, rest: string): Args {
  const words = rest.split(/\s+/).filter(Boolean);
  const takesText = v.params.some((p) => p.rest);
  const flags = new Map<string, string | true>();
  const positional: string[] = [];
  let lead = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const where = !takesText || positional.length === 0;
    const f = where && v.flags.find((x) => x.name === w && x.door !== 'cli');
    if (f) {
      flags.set(f.name, f.value ? (words[++i] ?? '') : true);
      if (positional.length === 0) lead = i + 1;
    } else if (where && !takesText && w.startsWith('--')) {
      throw new UsageError(`unknown option ${w} — usage: :memory ${v.name}${v.args ? ` ${v.args}` : ''}`);
    } else positional.push(w);
  }
  const at = v.params.findIndex((p) => p.rest);
  return { words: positional, text: at < 0 ? '' : afterWords(afterWords(rest, lead), at).trim(), flags };
}

export interface MemoryVerb extends Syntax {
  /** One line of help (continuation lines allowed): `:help memory` and `aish memory --help`. */
  help: string;
  /** Only in this door. */
  door?: 'repl' | 'cli';
  complete?: (m: MemoryService, argv: string[], word: string) => string[];
  exec(m: MemoryService, a: Args, door: Door): Promise<Shown>;
}

interface Spec<R, J> extends Omit<MemoryVerb, 'exec' | 'params' | 'flags'> {
  params?: Param[];
  flags?: Flag[];
  run: (m: MemoryService, a: Args, door: Door) => Promise<R>;
  /** A view may load what it needs first: a verb's table entry costs the verbs that do not run nothing. */
  text: (r: R, door: Door) => Shown | Promise<Shown>;
  /** `--json`: shows what `runJson` returns when given (a smaller read than the text's), else `run`'s. */
  json?: (r: J, door: Door) => Shown | Promise<Shown>;
  runJson?: (m: MemoryService, a: Args, door: Door) => Promise<J>;
}

const JSON_FLAG: Flag = { name: '--json', help: 'print JSON (the same from :memory and aish memory)' };

/** A verb: run, then shown as text, or as JSON with `--json`. */
export function verb<R, J = R>(s: Spec<R, J>): MemoryVerb {
  const { run, runJson, text, json, params = [], flags = [], ...rest } = s;
  return {
    ...rest,
    params,
    flags: json ? [...flags, JSON_FLAG] : flags,
    exec: async (m, a, door) => {
      // Without runJson, J is R (its default): the JSON view is of run's result.
      if (json && a.flags.has('--json')) return json(await (runJson ?? (run as unknown as NonNullable<typeof runJson>))(m, a, door), door);
      return text(await run(m, a, door), door);
    },
  };
}

export const hint = (d: Door) => `${d.cmd} list`;
export const value = (v: unknown): JsonOut => ({ value: v });

/** The command line's one-line notice that some lines of memory.jsonl could not be read. */
export function unreadableLine(d: Door, n: number): Line[] {
  return n && !d.repl ? [warnLine(`warning: ${basename(d.path)} has ${plural(n, 'unreadable line')} (see ${hint(d)})`)] : [];
}

/**
 * Success lines say `memory: …` in the REPL; nothing to do is said plainly; a request that cannot
 * be done (an unknown or forgotten id) is the failure, in both doors.
 */
export function said(r: OpResult, d: Door, more: Line[] = []): Shown {
  if (!r.ok) return { lines: more, error: r.text };
  return { lines: [...more, info(r.changed && d.repl ? `memory: ${r.text}` : r.text)] };
}

export const changed = (r: Changed, d: Door) => said(r, d, unreadableLine(d, r.unreadable));

/** JSON as text, bidi and invisible characters spelled as `\u` escapes (the same data, safe to show). */
export function jsonText(j: JsonOut): string {
  return escapeForJson(
    'items' in j ? JSON.stringify(Array.from(j.items, j.shape), null, 2) : JSON.stringify(j.value, null, j.compact ? undefined : 2),
  );
}
