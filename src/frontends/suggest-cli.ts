/**
 * `aish -e "find files over 100 MB here"`: one shell command for a request in words. With stdout a
 * terminal, the review of core/suggest.ts on a plain (non-Ink) terminal; otherwise only the command
 * is printed, one line, so scripts and the shell's Alt-E binding (`aish init`) can take it.
 */
import type { Setup } from '../config/setup';
import { Engine } from '../core/engine';
import type { EngineHost } from '../core/host';
import type { EngineOptions } from '../core/options';
import { firstMessages, requestSuggestion, suggestCommand } from '../core/suggest';
import { AishError, formatError } from '../util/errors';
import { osc52 } from '../util/osc52';
import { allowLineEditing, shown, writeRaw } from '../util/output-guard';
import { lineQuestions } from './line-questions';
import { cancelOnSignals } from './signals';

const SGR = { red: '\x1b[31m', yellow: '\x1b[33m', dim: '\x1b[2m', reset: '\x1b[0m' };

/** A line-by-line terminal: colors, Markdown rendered when finished, questions on readline. */
export function terminalHost(color: boolean): EngineHost {
  const out = process.stdout;
  const paint = (sgr: string, text: string) => (color ? `${sgr}${text}${SGR.reset}` : text);
  let live: { kind: string; atLineStart: boolean } | null = null;
  const write = (s: string) => {
    out.write(s);
    if (live) live.atLineStart = s.endsWith('\n');
  };
  return {
    interactive: true,
    print(item) {
      if (item.kind === 'shell' && live?.kind === 'shell') {
        // The output streamed already: only the status line (`[exit 0]`) is left to show.
        live = null;
        out.write(`${paint(SGR.dim, item.text.split('\n').at(-1) ?? '')}\n`);
        return;
      }
      live = null;
      out.write(`${render(item.kind, item.text, item.markdown === true)}\n`);
    },
    liveStart(kind, label) {
      live = { kind, atLineStart: true };
      if (kind === 'shell') write(paint(SGR.dim, `$ ${label ?? ''}`) + '\n');
      // A model call shows one line while it waits; it is erased when the answer comes.
      else out.write(paint(SGR.dim, kind === 'assistant' ? 'thinking… (Ctrl-C to cancel)' : `${label ?? 'working'}… (Ctrl-C to cancel)`));
    },
    liveText(text) {
      if (live?.kind === 'shell') write(text);
    },
    liveEnd() {
      if (live?.kind === 'shell') {
        if (!live.atLineStart) out.write('\n');
      } else writeRaw(out, '\r\x1b[2K'); // our own: erase the waiting line
    },
    ask(question, o) {
      if (o?.keys && process.stdin.isTTY) return askKey(out, question);
      const questions = lineQuestions(out, process.stdin.isTTY === true);
      return questions.ask(question, o).finally(() => questions.close());
    },
    withTerminal: (fn) => fn(),
    copy: (text) => writeRaw(out, osc52(text)),
  };

  function render(kind: string, text: string, markdown: boolean): string {
    // The renderer is loaded by runSuggest before anything is shown.
    if (markdown && md) return md.renderMarkdown(text, { width: out.columns || 80, color }).replace(/\n+$/, '');
    if (kind === 'error') return paint(SGR.red, `✗ ${text}`);
    if (kind === 'warn') return paint(SGR.yellow, `! ${text}`);
    if (kind === 'shell') return paint(SGR.dim, text);
    return text;
  }
}

/**
 * A menu on a terminal: one key answers, without Enter. Enter alone answers '' (the default);
 * Ctrl-C and Ctrl-D answer null; any other key is shown and handed back (the caller asks again).
 */
function askKey(out: NodeJS.WriteStream, question: string): Promise<string | null> {
  const input = process.stdin;
  return new Promise((resolve) => {
    const endEditing = allowLineEditing();
    out.write(shown(question));
    input.setRawMode(true);
    input.resume();
    const onData = (data: Buffer) => {
      const k = data.toString('utf8');
      if (k.startsWith('\x1b')) return; // arrows and the like: not an answer
      const answer = k === '\r' || k === '\n' ? '' : k === '\x03' || k === '\x04' ? null : k;
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      endEditing();
      out.write(`${answer ?? '^C'}\n`);
      resolve(answer);
    };
    input.on('data', onData);
  });
}

type MarkdownModule = typeof import('./repl/markdown');
let md: MarkdownModule | null = null;

export async function runSuggest(setup: Setup, request: string, opts: EngineOptions): Promise<number> {
  const tty = process.stdout.isTTY === true;
  if (tty) md = await import('./repl/markdown');
  const quiet: EngineHost = {
    // Only the command goes to stdout; anything else aish has to say goes to stderr.
    print: (item) => {
      if (item.kind === 'warn' || item.kind === 'error')
        process.stderr.write(`aish: ${item.kind === 'warn' ? 'warning: ' : ''}${item.text}\n`);
    },
    liveStart() {},
    liveText() {},
    liveEnd() {},
    ask: async () => null,
    canAsk: false,
  };
  const color = tty && !process.env.NO_COLOR;
  // No engine.start(): no MCP servers or recall index for one question; memory loads when asked.
  const engine = Engine.create(setup, tty ? terminalHost(color) : quiet, { ...opts, capture: false, oneshot: true });
  const removeSignals = cancelOnSignals(engine);
  try {
    const deps = engine.suggester();
    if (tty) {
      await suggestCommand(deps, request);
      return 0;
    }
    const s = await requestSuggestion(deps, await firstMessages(deps, request));
    if (!s) return 130;
    process.stdout.write(`${s.command}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`aish: ${formatError(err)}\n`);
    return err instanceof AishError ? err.exitCode : 1;
  } finally {
    removeSignals();
    await engine.close();
  }
}
