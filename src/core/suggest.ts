/**
 * Natural language → one shell command, reviewed before it runs (`:do TEXT`, `aish -e TEXT` in a
 * terminal): ask the model, show the command with its explanation, then
 * `[e]xecute [r]evise [d]escribe [c]opy [q]uit`. Executing goes through the same classifier as
 * run_command: a destructive command is shown in red and runs only after a typed `yes`. The
 * exchange is a side conversation: only an executed command's output joins the chat (as `!cmd`'s does).
 */
import { basename } from 'node:path';
import type { Broker } from '../broker/broker';
import type { ChatMessage, Usage } from '../broker/types';
import {
  describeMessages,
  parseSuggestion,
  revisionMessages,
  suggestMessages,
  suggestSystemPrompt,
  type SuggestEnv,
  type Suggestion,
} from '../context/suggest';
import type { MemoryItem } from '../memory/types';
import { userShell } from '../tools/shell';
import { AishError } from '../util/errors';
import { runUserShell, type UserShellDeps } from './user-shell';

export type Choice = 'execute' | 'revise' | 'describe' | 'copy' | 'quit';

const CHOICES_PROMPT = '[e]xecute [r]evise [d]escribe [c]opy [q]uit: ';
/** One key acts, as in aichat: the menu is asked with these keys. */
const CHOICE_KEYS = { keys: 'erdcq' };

/** The menu's answer: a letter or the word; Enter or nobody there quits; null asks again. */
export function parseChoice(answer: string | null): Choice | null {
  if (answer === null) return 'quit';
  const a = answer.trim().toLowerCase();
  if (!a) return 'quit';
  const all: Choice[] = ['execute', 'revise', 'describe', 'copy', 'quit'];
  return all.find((c) => c === a || c[0] === a) ?? (a === 'exit' || a === 'q!' ? 'quit' : null);
}

/** A destructive command runs only on the typed word: `y` or Enter is not enough. */
export function typedYes(answer: string | null): boolean {
  return answer !== null && answer.trim().toLowerCase() === 'yes';
}

export function suggestEnv(cwd: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): SuggestEnv {
  const os =
    (
      { darwin: 'macOS', linux: 'Linux', win32: 'Windows', freebsd: 'FreeBSD', openbsd: 'OpenBSD' } as Partial<
        Record<NodeJS.Platform, string>
      >
    )[platform] ?? platform;
  return { cwd, os, shell: basename(userShell(env)) };
}

/** The suggestion shown: the command in a fence (highlighted where Markdown is rendered), then why. */
export function suggestionText(s: Suggestion): string {
  const fence = s.command.includes('```') ? '~~~~' : '```';
  return `${fence}sh\n${s.command}\n${fence}${s.explanation ? `\n${s.explanation}` : ''}`;
}

export interface SuggestDeps extends UserShellDeps {
  broker(): Pick<Broker, 'stream'>;
  /** The [background] items (start-up memory read first). */
  memoryItems(): Promise<readonly Pick<MemoryItem, 'kind' | 'content'>[]>;
  /** `safety.extraDestructivePatterns`. */
  extraPatterns: ReadonlyArray<string | RegExp>;
  countUsage?(u: Usage): void;
  env?: NodeJS.ProcessEnv;
}

export interface SuggestOutcome {
  /** The last command suggested (null: none came back). */
  suggestion: Suggestion | null;
  choice: Choice | 'cancelled' | 'refused';
}

/** The first request: system prompt (cwd, OS, shell, [background]) and the user's words. */
export async function firstMessages(deps: Pick<SuggestDeps, 'memoryItems' | 'cwd' | 'env'>, request: string): Promise<ChatMessage[]> {
  return suggestMessages(suggestSystemPrompt(suggestEnv(deps.cwd, deps.env), await deps.memoryItems()), request);
}

/** One model call, parsed. Null when cancelled; throws on a failed call or an answer with no command. */
export async function requestSuggestion(
  deps: Pick<SuggestDeps, 'broker' | 'countUsage'>,
  messages: ChatMessage[],
  signal?: AbortSignal,
): Promise<Suggestion | null> {
  const r = await deps.broker().stream(messages, signal ? { signal } : {});
  if (r.usage) deps.countUsage?.(r.usage);
  if (r.interrupted || signal?.aborted) return null;
  const s = parseSuggestion(r.content);
  if ('error' in s) throw new AishError(`${s.error}: ${JSON.stringify(r.content.trim().slice(0, 200))}`);
  return s;
}

/** The whole review: suggest, then the menu until the user executes, copies or quits. */
export async function suggestCommand(deps: SuggestDeps, request: string): Promise<SuggestOutcome> {
  const { host } = deps;
  let messages = await firstMessages(deps, request);
  const ask = (msgs: ChatMessage[]) =>
    deps.cancellable(async (signal) => {
      host.liveStart('tool', 'asking the model for a command');
      try {
        return await requestSuggestion(deps, msgs, signal);
      } finally {
        host.liveEnd();
      }
    });
  let current = await ask(messages);
  if (!current) return cancelled(deps, null);
  let shown: Suggestion | null = null;
  for (;;) {
    // After a description the command is still on screen above it: shown again only when new.
    if (shown !== current) host.print({ kind: 'assistant', text: suggestionText(current), markdown: true });
    shown = current;
    let choice = parseChoice(await host.ask(CHOICES_PROMPT, CHOICE_KEYS));
    while (choice === null) {
      host.print({ kind: 'info', text: 'answer e, r, d, c or q' });
      choice = parseChoice(await host.ask(CHOICES_PROMPT, CHOICE_KEYS));
    }
    switch (choice) {
      case 'quit':
        return { suggestion: current, choice };
      case 'copy':
        host.copy?.(current.command);
        host.print({ kind: 'info', text: `${host.copy ? 'copied to the clipboard: ' : ''}${current.command}` });
        return { suggestion: current, choice };
      case 'execute':
        return { suggestion: current, choice: (await execute(deps, current.command)) ? 'execute' : 'refused' };
      case 'describe':
        await describe(deps, current.command);
        break;
      case 'revise': {
        const change = (await host.ask('what should change? '))?.trim();
        if (!change) break;
        const next = revisionMessages(messages, current, change);
        const revised = await ask(next);
        if (!revised) return cancelled(deps, current);
        messages = next;
        current = revised;
        break;
      }
    }
  }
}

function cancelled(deps: SuggestDeps, s: Suggestion | null): SuggestOutcome {
  deps.host.print({ kind: 'info', text: '[interrupted]' });
  return { suggestion: s, choice: 'cancelled' };
}

/** Runs it as `!cmd` would, after the classifier: destructive needs the typed word `yes`. */
async function execute(deps: SuggestDeps, command: string): Promise<boolean> {
  const { classifyCommand } = await import('../tools/safety/classify');
  const verdict = await classifyCommand(command, { extraPatterns: [...deps.extraPatterns] });
  if (verdict.destructive) {
    // The front end marks an error with its own icon: the text carries none.
    deps.host.print({ kind: 'error', text: `destructive: ${verdict.reasons.join(', ') || 'unrecognised command'} — ${command}` });
    if (!typedYes(await deps.host.ask('type yes to run it: '))) {
      deps.host.print({ kind: 'info', text: 'not run' });
      return false;
    }
  }
  // A leading `!` would read as `!!CMD` (force the terminal): the space keeps the command as is.
  await runUserShell(deps, command.startsWith('!') ? ` ${command}` : command);
  return true;
}

async function describe(deps: SuggestDeps, command: string): Promise<void> {
  const { host } = deps;
  const r = await deps.cancellable(async (signal) => {
    host.liveStart('assistant');
    try {
      return await deps
        .broker()
        .stream(describeMessages(suggestEnv(deps.cwd, deps.env), command), { signal, onText: (t) => host.liveText(t) });
    } finally {
      host.liveEnd();
    }
  });
  if (r.usage) deps.countUsage?.(r.usage);
  if (r.content) host.print({ kind: 'assistant', text: r.content, markdown: true, interrupted: r.interrupted });
  else if (r.interrupted) host.print({ kind: 'info', text: '[interrupted]' });
}
