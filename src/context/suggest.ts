/**
 * Natural language → one shell command (`aish -e`, `:do`): the messages sent for a suggestion, a
 * revision and a description, and the parser of the model's answer. The answer format is strict
 * (`COMMAND:` / `EXPLANATION:` lines) but the parser also takes what models send instead: a fenced
 * code block with prose around it, bold labels, a bare one-line command.
 */
import type { ChatMessage } from '../broker/types';
import { backgroundBlock } from '../memory/background/blocks';
import type { MemoryItem } from '../memory/types';
import { sanitizeForBlock } from '../util/text';

export interface SuggestEnv {
  cwd: string;
  /** e.g. `Linux`, `macOS`. */
  os: string;
  /** The user's shell by name (`bash`, `zsh`, `fish`): the command must be valid there. */
  shell: string;
}

export interface Suggestion {
  command: string;
  explanation: string;
}

const SUGGEST_FORMAT = ['COMMAND: <the command, on one line>', 'EXPLANATION: <one line: what it does>'].join('\n');

export function suggestSystemPrompt(env: SuggestEnv, memoryItems: readonly Pick<MemoryItem, 'kind' | 'content'>[]): string {
  const parts = [
    [
      'You are aish, turning a request into exactly one shell command the user will review before running it.',
      `Environment: OS ${sanitizeForBlock(env.os)}; shell ${sanitizeForBlock(env.shell)}; current directory ${sanitizeForBlock(env.cwd)}.`,
      `The command must work in ${sanitizeForBlock(env.shell)} on this OS. Combine steps with pipes, && or ; — one line, no comments.`,
      'Prefer the simplest correct and safe form; never add destructive flags the request did not ask for.',
      'Answer in exactly this format and nothing else (no code fences, no extra text):',
      SUGGEST_FORMAT,
    ].join('\n'),
  ];
  const bg = backgroundBlock(memoryItems);
  if (bg) parts.push(bg);
  return parts.join('\n\n');
}

export function suggestMessages(system: string, request: string): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: request },
  ];
}

/** The conversation so far plus a revision request that names the previous command. */
export function revisionMessages(previous: readonly ChatMessage[], last: Suggestion, change: string): ChatMessage[] {
  return [
    ...previous,
    { role: 'assistant', content: `COMMAND: ${last.command}\nEXPLANATION: ${last.explanation}` },
    {
      role: 'user',
      content: `Revise the previous command:\n${last.command}\nWhat to change: ${change}\nAnswer in the same format:\n${SUGGEST_FORMAT}`,
    },
  ];
}

export function describeMessages(env: SuggestEnv, command: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You explain shell commands (${sanitizeForBlock(env.shell)} on ${sanitizeForBlock(env.os)}) to a developer. ` +
        'Go through the command part by part — the program, each option and argument, each pipe stage or redirection — ' +
        'one Markdown bullet each: `part` — what it does. Then one line on what the whole command does and any risk. Be brief.',
    },
    { role: 'user', content: command },
  ];
}

const LABEL = /^\s*(?:[-*>]\s*)?\**\s*(COMMAND|CMD|EXPLANATION|DESCRIPTION)\s*\**\s*:\s*\**\s*(.*)$/i;
const FENCE = /^\s*(`{3,}|~{3,})\s*([\w+-]*)\s*$/;

/** Reasoning models may think aloud first; that is never the answer. */
function withoutThinking(text: string): string {
  return text.replace(/<think(?:ing)?>[\s\S]*?<\/think(?:ing)?>/gi, '').replace(/^[\s\S]*<\/think(?:ing)?>/i, '');
}

/** `` `cmd` `` → cmd; a leading shell prompt (`$ `) is not part of the command. */
function cleanCommand(s: string): string {
  let c = s.trim();
  const tick = /^(`+)([\s\S]*)\1$/.exec(c);
  if (tick) c = tick[2]!.trim();
  return c.replace(/^\$\s+/, '').trim();
}

function cleanProse(s: string): string {
  return s
    .trim()
    .replace(/^[-*>#]+\s*/, '')
    .replace(/\*\*/g, '')
    .trim();
}

/** Lines of a multi-line command made one: continuations joined, statements separated by `;`. */
export function joinLines(lines: readonly string[]): string {
  const parts = lines.map((l) => l.replace(/^\$\s+/, '').trimEnd()).filter((l) => l.trim() && !/^\s*#/.test(l));
  let out = '';
  for (const p of parts) {
    if (!out) out = p.trim();
    else if (/\\$/.test(out)) out = `${out.slice(0, -1).trimEnd()} ${p.trim()}`;
    // After these a newline is only white space to the shell; elsewhere it ends a statement.
    else if (/(\bdo|\bthen|\belse|[{|(]|&&|\|\|)$/.test(out)) out = `${out} ${p.trim()}`;
    else out = `${out}; ${p.trim()}`;
  }
  return out;
}

/** The first fenced block: its lines, and the text outside it. */
function firstFence(lines: readonly string[]): { code: string[]; outside: string[] } | null {
  const start = lines.findIndex((l) => FENCE.test(l));
  if (start < 0) return null;
  const marker = FENCE.exec(lines[start]!)![1]!;
  let end = lines.findIndex(
    (l, i) => i > start && l.trim().startsWith(marker[0]!.repeat(marker.length)) && !l.trim().slice(marker.length).trim(),
  );
  if (end < 0) end = lines.length;
  return { code: lines.slice(start + 1, end), outside: [...lines.slice(0, start), ...lines.slice(end + 1)] };
}

/** The command and explanation in a model's answer, or why none could be read. */
export function parseSuggestion(answer: string): Suggestion | { error: string } {
  const lines = withoutThinking(answer).replace(/\r\n?/g, '\n').split('\n');
  let command = '';
  let explanation = '';
  for (let i = 0; i < lines.length; i++) {
    const m = LABEL.exec(lines[i]!);
    if (!m) continue;
    const isCommand = /^c/i.test(m[1]!);
    // `**COMMAND: ls**`: the closing bold is not part of it (a trailing `*` alone may be a glob).
    const value = (/^\s*\*\*/.test(lines[i]!) ? m[2]!.replace(/\*\*$/, '') : m[2]!).trim();
    if (isCommand && !command) {
      // `COMMAND:` alone on its line, the command in a fence (or on the line) below it.
      const rest = value ? null : firstFence(lines.slice(i + 1));
      if (rest) command = joinLines(rest.code);
      else command = cleanCommand(value || (lines[i + 1] ?? ''));
    } else if (!isCommand && !explanation) explanation = cleanProse(value || (lines[i + 1] ?? ''));
  }
  if (!command) {
    const fence = firstFence(lines);
    if (fence) {
      command = joinLines(fence.code);
      explanation ||= cleanProse(fence.outside.map(cleanProse).find((l) => l && !LABEL.test(l)) ?? '');
    } else {
      const text = lines.map((l) => l.trim()).filter(Boolean);
      // A bare answer: one line that is the command — unless it reads as a sentence (a refusal).
      const only = text.length === 1 && !LABEL.test(text[0]!) ? cleanCommand(text[0]!) : '';
      if (only && !/^[A-Z][a-z']*\b.*[.!?]$/.test(only)) command = only;
    }
  }
  command = command.replace(/\s*\n\s*/g, ' ').trim();
  if (!command) return { error: 'the model did not answer with a command' };
  return { command, explanation: explanation.replace(/\s+/g, ' ') };
}
