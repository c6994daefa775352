/**
 * Process-wide signal handling belongs to the front ends, not the core. MCP servers run in their
 * own process session, so a closed terminal (SIGHUP) or a kill (SIGTERM) must still end them:
 * close the engine, then exit with the signal's status.
 */
import type { Engine } from '../core/engine';

/**
 * Installs the handlers when MCP servers are configured, or when the terminal has something to
 * restore (`restore`: the REPL's bracketed paste, which a default death by signal would leave on,
 * so the shell after it would show pastes as `^[[200~…`); returns a function that removes them.
 */
export function closeOnHangup(engine: Engine, restore?: () => void): () => void {
  if (!engine.hasServers && !restore) return () => {};
  const handlers = (['SIGHUP', 'SIGTERM'] as const).map((sig) => {
    const h = () => {
      try {
        restore?.();
      } catch {
        // the terminal is gone (SIGHUP): nothing to restore
      }
      void engine.close().finally(() => process.exit(128 + (sig === 'SIGHUP' ? 1 : 15)));
    };
    process.once(sig, h);
    return [sig, h] as const;
  });
  return () => {
    for (const [sig, h] of handlers) process.removeListener(sig, h);
  };
}

/**
 * For a front end without raw mode (plain, `-p`, `-e`): Ctrl-C, a signal there, cancels what is
 * running and quits with 130 when nothing is; a hangup or a kill closes the engine (closeOnHangup).
 * Returns a function that removes both.
 */
export function cancelOnSignals(engine: Engine): () => void {
  const removeHangup = closeOnHangup(engine);
  const onSigint = () => {
    if (!engine.cancel()) process.exit(130);
  };
  process.on('SIGINT', onSigint);
  return () => {
    process.removeListener('SIGINT', onSigint);
    removeHangup();
  };
}
