/**
 * `aish -p "question"`: the answer streams to stdout and aish exits. Piped stdin is
 * attached as context (`git diff | aish -p "review"`); memory is injected as in the REPL.
 */
import { fstatSync } from 'node:fs';
import type { Setup } from '../config/setup';
import { attachableText } from '../context/at-files';
import type { EngineOptions } from '../core/options';
import type { EngineHost } from '../core/host';
import { AishError, formatError } from '../util/errors';
import { withEngine } from './start-engine';

/**
 * Piped stdin under the rules an `@file` meets (text, at most context.maxFileBytes): the text, or
 * why it is refused. Reading stops once past the limit, so `yes | aish -p …` ends too.
 */
async function readStdin(maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  let knownSize: number | undefined;
  try {
    const st = fstatSync(0);
    if (st.isDirectory()) return { ok: false, reason: 'a directory, not text' };
    if (st.isFile()) knownSize = st.size;
  } catch {
    // no descriptor 0 to stat: read what comes
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const c of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(c);
    total += c.length;
    if (total > maxBytes) break;
  }
  const buf = Buffer.concat(chunks);
  // Past the limit, what was read still tells binary from long text (`< /dev/urandom`).
  const head = buf.subarray(0, maxBytes);
  if (total > maxBytes && head.includes(0)) return attachableText(head, maxBytes);
  return attachableText(total > maxBytes ? null : buf, maxBytes, knownSize);
}

export function withStdin(prompt: string, stdin: string): string {
  if (!stdin.trim()) return prompt;
  const fence = stdin.includes('```') ? '~~~~' : '```';
  return `${prompt}\n\nInput from stdin:\n${fence}\n${stdin.replace(/\n$/, '')}\n${fence}`;
}

export async function runOneShot(setup: Setup, prompt: string, opts: EngineOptions): Promise<number> {
  const piped = process.stdin.isTTY ? { ok: true as const, text: '' } : await readStdin(setup.config.context.maxFileBytes);
  if (!piped.ok) {
    // The same refusal as an @file's, and the same exit: a question about input the model never sees is not sent.
    process.stderr.write(`aish: piped stdin: ${piped.reason} — prompt not sent; pipe text of at most context.maxFileBytes\n`);
    return 1;
  }
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
      const r = await engine.prompt(prompt, withStdin('', piped.text));
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
