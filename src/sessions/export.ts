/**
 * A session log as a document (`:export`, `aish sessions export`): Markdown for people — a title,
 * `## You` / `## aish` per exchange, each tool call and its result folded in a `<details>` block,
 * `!cmd` output as fenced code — or the turns as a JSON array for scripts. Pure: no file access.
 */
import { fenced } from '../util/fence';
import type { Turn } from './types';

/** The prefix `core/user-shell.ts` puts before a prompt for each `!cmd` run since the last one. */
const SHELL_NOTE =
  /Output of a shell command I ran \(`([^\n]*?)`, ([^\n]*?)\)(?::\n```\n([\s\S]*?)\n```|: (none, it printed nothing|only blank space, no text)\.)(?=\n\nOutput of a shell command I ran \(|$)/g;

export interface ExportInput {
  /** Session name (the log's file name without .jsonl). */
  name: string;
  turns: readonly Turn[];
  /** The digest's title, when the session has one. */
  title?: string | undefined;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const oneLine = (s: string, max = 80) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** What the user typed: `typed` when the content carries more (`!cmd` output, Norris's wrapper). */
const typedText = (t: Turn) => t.typed ?? t.content ?? '';

export function exportTitle(input: ExportInput): string {
  if (input.title) return input.title;
  const first = input.turns.find((t) => t.role === 'user' && t.meta !== 'summarize');
  return first ? oneLine(typedText(first)) || input.name : input.name;
}

/** The shell notes in `text`, and how many characters of it they (with the blank lines between them) cover. */
function shellNotes(text: string): { blocks: string[]; covered: number } {
  const blocks: string[] = [];
  let covered = 0;
  for (const m of text.matchAll(SHELL_NOTE)) {
    covered += m[0].length + (blocks.length ? 2 : 0);
    // A command that printed nothing has no block to show, only the note's own words.
    blocks.push(m[4] ? `Ran \`!${m[1]}\` (${m[2]}): ${m[4]}.` : `Ran \`!${m[1]}\` (${m[2]}):\n\n${fenced(m[3] ?? '', 'text')}`);
  }
  return { blocks, covered };
}

/** The part of the content before what was typed: `!cmd` outputs. */
function shellPrefix(content: string, typed: string): string {
  if (content.endsWith(typed)) return content.slice(0, content.length - typed.length).replace(/\n\n$/, '');
  // `@file`s attached after the typed text: the prefix is what precedes it and is nothing but shell notes.
  const at = `\n\n${typed}`;
  for (let i = content.indexOf(at); i > 0; i = content.indexOf(at, i + 1)) {
    const prefix = content.slice(0, i);
    if (shellNotes(prefix).covered === prefix.length) return prefix;
  }
  return '';
}

/** `!cmd` outputs sent with a prompt, as fenced blocks. */
function shellBlocks(t: Turn): string[] {
  if (t.typed === undefined || t.meta === 'norris' || !t.content) return [];
  const prefix = shellPrefix(t.content, t.typed);
  if (!prefix) return [];
  const { blocks: out, covered: matched } = shellNotes(prefix);
  // A prefix in another shape (an older aish) is still shown, whole.
  if (matched === 0) out.push(fenced(prefix));
  return out;
}

/** `run_command: ls -la`, else `name {args…}`. */
function callSummary(name: string, args: string): string {
  try {
    const a = JSON.parse(args) as unknown;
    if (a && typeof a === 'object' && 'command' in a && typeof a.command === 'string') return `${name}: ${oneLine(a.command)}`;
  } catch {
    // Not JSON: shown as sent.
  }
  return `${name} ${oneLine(args, 60)}`;
}

function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

export function renderMarkdown(input: ExportInput): string {
  const out: string[] = [`# ${exportTitle(input)}`, `Session \`${input.name}\`${input.turns[0] ? `, from ${input.turns[0].ts}` : ''}.`];
  const results = new Map(input.turns.filter((t) => t.role === 'tool' && t.tool_call_id).map((t) => [t.tool_call_id!, t.content ?? '']));
  let speaker: 'user' | 'aish' | null = null;
  const heading = (who: 'user' | 'aish', text: string) => {
    if (speaker !== who) out.push(text);
    speaker = who;
  };
  for (const t of input.turns) {
    if (t.meta === 'summarize' || t.role === 'system' || t.role === 'tool') continue;
    if (t.role === 'user') {
      speaker = null; // every prompt gets its own heading
      heading('user', t.meta === 'norris' ? '## You (Norris goal)' : '## You');
      out.push(...shellBlocks(t));
      const typed = typedText(t);
      if (typed.trim()) out.push(typed);
      continue;
    }
    heading('aish', '## aish');
    if (t.meta === 'error') out.push('_(the model call failed)_');
    else if (t.content) out.push(t.content);
    for (const c of t.tool_calls ?? []) {
      const result = results.get(c.id);
      out.push(
        `<details>\n<summary>${escapeHtml(callSummary(c.function.name, c.function.arguments))}</summary>`,
        fenced(prettyArgs(c.function.arguments), 'json'),
        result === undefined ? '_(no result: the session ended before it ran)_' : `Result:\n\n${fenced(result)}`,
        '</details>',
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}

/** The turns as they are in the log (digest and header lines are not turns). */
export function renderJson(turns: readonly Turn[]): string {
  return `${JSON.stringify(turns, null, 2)}\n`;
}
