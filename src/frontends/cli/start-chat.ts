/**
 * A conversation: the REPL on a terminal, plain lines on a pipe or a dumb terminal. What plain `aish` starts (main.ts),
 * and the command line once its options ask for neither -p, --norris nor -e (start-session.ts).
 */
import type { Setup } from '../../config/setup';
import type { EngineOptions } from '../../core/options';

export async function startChat(s: Setup, opts: EngineOptions): Promise<number> {
  // TERM=dumb (Emacs M-x shell, …) cannot move the cursor the REPL's frames redraw with: plain lines
  // there, typed in the terminal's own line editing; Ctrl-C still cancels an answer (start-engine.ts).
  const screen = process.stdin.isTTY && process.stdout.isTTY && process.env.TERM !== 'dumb';
  if (screen) return (await import('../repl/repl')).runRepl(s, opts);
  return (await import('../plain')).runPlain(s, opts);
}
