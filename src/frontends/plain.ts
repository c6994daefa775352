/**
 * stdin is not a terminal and there is no `-p`: each line is taken as if typed, output is
 * plain text, questions such as [y/N] are answered by the next line, and end of input exits 0.
 */
import type { Setup } from '../config/setup';
import type { EngineOptions } from '../core/options';
import type { EngineHost, OutputItem } from '../core/host';
import { oneLine } from '../util/text';
import { stdinLines, StdinRefused } from './plain-lines';
import { withEngine } from './start-engine';

/** Questions offering choices, and the lines that answer them (Enter always does). */
const CHOICES: ReadonlyArray<[question: RegExp, answer: RegExp]> = [
  [/\[y\/[^\]]*\]\s*$/i, /^\s*(y|yes|n|no|e|edit|s|skip|a|always)?\s*$/i], // [y/N], [y/n/e/s], [y/N/edit], [y/N/always]
  [/\[q\]uit:\s*$/i, /^\s*(e|execute|r|revise|d|describe|c|copy|q|quit)?\s*$/i], // the :do menu
  [/type yes to run it/i, /^\s*(y|yes|n|no)?\s*$/i],
];

/** True when `line` cannot be meant as the answer to `question` (a choice question only). */
function notAnAnswer(question: string, line: string): boolean {
  const c = CHOICES.find(([q]) => q.test(question));
  return c !== undefined && !c[1].test(line);
}

export function plainText(item: OutputItem): string {
  switch (item.kind) {
    case 'error':
      return `aish: ${item.text}`;
    case 'warn':
      return `aish: warning: ${item.text}`;
    case 'user':
      return `> ${item.text}`;
    default:
      return item.text;
  }
}

/**
 * Plain text output: streamed answers as they arrive, errors and warnings on stderr, questions
 * answered by `next` (the next input line; null = nobody there).
 */
export function plainHost(next: () => Promise<string | null>, putBack?: (line: string) => void): EngineHost {
  const out = process.stdout;
  let streamedKind: string | null = null;
  let atLineStart = true;
  const write = (s: string) => {
    if (!s) return;
    out.write(s);
    atLineStart = s.endsWith('\n');
  };

  return {
    print(item) {
      // Already streamed as it arrived: do not print it twice.
      if (streamedKind && streamedKind !== 'tool' && item.kind === streamedKind) {
        streamedKind = null;
        if (item.interrupted) write(`${atLineStart ? '' : '\n'}[interrupted]\n`);
        return;
      }
      const text = plainText(item);
      // A warning on stderr between a streamed answer and its finished item (a session log that
      // cannot be written) does not make the answer new: it was shown, and is not shown again.
      if (item.kind === 'warn') return void process.stderr.write(text + '\n');
      streamedKind = null;
      if (item.kind === 'error') process.stderr.write(text + '\n');
      else write((atLineStart ? '' : '\n') + text + '\n');
    },
    liveStart(kind) {
      streamedKind = kind;
    },
    liveText(text) {
      // A tool's output is summarised when it ends (exit code, first lines); plain text stays short.
      if (streamedKind !== 'tool') write(text);
    },
    liveEnd() {
      if (!atLineStart) write('\n');
    },
    async ask(question, o) {
      // No pre-filled editing here: show the text, and an empty line keeps it.
      write((atLineStart ? '' : '\n') + question + (o?.initial !== undefined ? `[${o.initial}] ` : ''));
      const answer = await next();
      write('\n');
      // A script that did not expect this question must not have its next command eaten as the
      // answer: a line that is no answer counts as Enter (the default), and runs as typed. Only a
      // `[y/N]` question's default is "no" (Enter skips a stale item; it forgets nothing).
      if (answer !== null && putBack && notAnAnswer(question, answer)) {
        const taken = /\[y\/N\b/.test(question) ? 'answered no (as Enter)' : 'taken as Enter';
        process.stderr.write(
          `aish: warning: ${JSON.stringify(oneLine(answer, 60))} is not an answer to "${question.trim()}" — ${taken}; the line runs as typed\n`,
        );
        putBack(answer);
        return '';
      }
      return answer !== null && answer === '' && o?.initial !== undefined ? o.initial : answer;
    },
  };
}

export async function runPlain(setup: Setup, opts: EngineOptions): Promise<number> {
  const lines = stdinLines(process.stdin as AsyncIterable<Buffer>);
  const putBack: string[] = [];
  // Input that is not lines of text ends the input, and the run: said once, at the end, exit 1.
  let refused: StdinRefused | null = null;
  const fresh = async (): Promise<string | null> => {
    if (refused) return null;
    try {
      const r = await lines.next();
      return r.done ? null : r.value;
    } catch (err) {
      if (!(err instanceof StdinRefused)) throw err;
      refused = err;
      return null;
    }
  };
  const next = async (): Promise<string | null> => (putBack.length ? putBack.shift()! : fresh());
  // Questions read fresh lines: a line put back to run as typed is not offered to the next question
  // too (it would be warned about, and answer, every question of a :memory summarize).
  const host = plainHost(fresh, (line) => putBack.push(line));

  try {
    // A script must see a failed model call: exit 1 when any failed, though the rest ran.
    return await withEngine(setup, host, opts, async ({ engine, input }) => {
      // Someone types (`aish | cat`, TERM=dumb): without a word they would not know aish is waiting.
      // On stderr, so stdout stays the answers (`aish | tee log`).
      if (process.stdin.isTTY) {
        const p = engine.preset;
        process.stderr.write(`aish: ready (${p.name}, ${p.model}) — type a prompt or :help; Ctrl-D quits\n`);
      }
      for (;;) {
        const line = await next();
        if (line === null) break;
        const r = await input.submit(line);
        if (r.quit) break;
      }
      if (refused) process.stderr.write(`aish: ${refused.message}\n`);
      return engine.failedCalls > 0 || refused ? 1 : 0;
    });
  } finally {
    // Stop reading: an endless stdin (`aish < /dev/zero`) would otherwise keep the process alive.
    process.stdin.destroy();
  }
}
