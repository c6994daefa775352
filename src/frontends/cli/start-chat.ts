/**
 * A conversation: the REPL on a terminal, plain lines on a pipe. What plain `aish` starts (main.ts),
 * and the command line once its options ask for neither -p, --norris nor -e (start-session.ts).
 */
import type { Setup } from '../../config/setup';
import type { EngineOptions } from '../../core/options';

export async function startChat(s: Setup, opts: EngineOptions): Promise<number> {
  if (process.stdin.isTTY && process.stdout.isTTY) return (await import('../repl/repl')).runRepl(s, opts);
  return (await import('../plain')).runPlain(s, opts);
}
