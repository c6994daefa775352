/**
 * `aish -p "question"`: the answer streams to stdout and aish exits. Piped stdin is
 * attached as context (`git diff | aish -p "review"`); memory is injected as in the REPL.
 */
import type { Setup } from '../config/setup';
import type { EngineOptions } from '../core/options';
import type { EngineHost } from '../core/host';
import { AishError, formatError } from '../util/errors';
import { withEngine } from './start-engine';

const STDIN_LIMIT = 256 * 1024;

async function readStdin(): Promise<{ text: string; cut: number }> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(c);
  }
  const all = Buffer.concat(chunks).toString('utf8');
  return all.length > STDIN_LIMIT ? { text: all.slice(0, STDIN_LIMIT), cut: all.length - STDIN_LIMIT } : { text: all, cut: 0 };
}

export function withStdin(prompt: string, stdin: string, cut: number): string {
  if (!stdin.trim()) return prompt;
  const fence = stdin.includes('```') ? '~~~~' : '```';
  const note = cut ? `\n(the last ${cut} characters were cut)` : '';
  return `${prompt}\n\nInput from stdin:\n${fence}\n${stdin.replace(/\n$/, '')}\n${fence}${note}`;
}

export async function runOneShot(setup: Setup, prompt: string, opts: EngineOptions): Promise<number> {
  const piped = process.stdin.isTTY ? { text: '', cut: 0 } : await readStdin();
  let atLineStart = true;
  const host: EngineHost = {
    print(item) {
      if (item.kind === 'warn') process.stderr.write(`aish: warning: ${item.text}\n`);
      else if (item.kind === 'error') process.stderr.write(`aish: ${item.text}\n`);
      // The answer itself was streamed already.
    },
    liveStart() {},
    liveText(text) {
      process.stdout.write(text);
      atLineStart = text.endsWith('\n');
    },
    liveEnd() {
      if (!atLineStart) process.stdout.write('\n');
      atLineStart = true;
    },
    ask: async () => null,
    canAsk: false, // nobody to ask: every question is a refusal, and none is printed
  };
  return withEngine(setup, host, { ...opts, capture: false, oneshot: true }, async ({ engine }) => {
    try {
      // Piped input goes after the prompt unscanned: an `@word` in it is no reference of the user's.
      const r = await engine.prompt(prompt, withStdin('', piped.text, piped.cut));
      if (r.refused > 0) {
        // The model asked for steps nobody could approve: the answer may be missing what they would have found.
        process.stderr.write(
          `aish: ${r.refused} tool step${r.refused === 1 ? ' was' : 's were'} refused (no one to confirm) — the answer may be incomplete; ask in the REPL to approve them\n`,
        );
        return 1;
      }
      return 0;
    } catch (err) {
      process.stderr.write(`aish: ${formatError(err)}\n`);
      return err instanceof AishError ? err.exitCode : 1;
    }
  });
}
