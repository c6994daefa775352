/** Shared by the two front ends without a terminal UI: start the engine, let Ctrl-C cancel. */
import type { Setup } from '../app/setup';
import { Engine, type EngineOptions } from '../engine/engine';
import type { EngineHost } from '../engine/host';

/**
 * Runs `body` with a started engine. Ctrl-C (a signal here: there is no raw mode) cancels what is
 * running, and quits with 130 when nothing is.
 */
export async function withEngine<T>(setup: Setup, host: EngineHost, opts: EngineOptions, body: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = Engine.create(setup, host, opts);
  engine.startBackgroundWork();
  const onSigint = () => {
    if (!engine.cancel()) process.exit(130);
  };
  process.on('SIGINT', onSigint);
  try {
    return await body(engine);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await engine.close();
  }
}
