/** Shared by the front ends without a terminal UI: start the engine, let Ctrl-C cancel. */
import type { Setup } from '../config/setup';
import { Engine } from '../core/engine';
import type { EngineOptions } from '../core/options';
import type { EngineHost } from '../core/host';
import { routerFor, type InputRouter } from '../input/router';
import { handOffCapture } from './capture-handoff';
import { cancelOnSignals } from './signals';

export interface Started {
  engine: Engine;
  input: InputRouter;
}

/**
 * Runs `body` with a started engine. Ctrl-C (a signal here: there is no raw mode) cancels what is
 * running, and quits with 130 when nothing is.
 */
export async function withEngine<T>(setup: Setup, host: EngineHost, opts: EngineOptions, body: (s: Started) => Promise<T>): Promise<T> {
  const [engine, input] = Engine.compose(setup, host, opts, routerFor);
  engine.start();
  const removeSignals = cancelOnSignals(engine);
  try {
    return await body({ engine, input });
  } finally {
    const line = handOffCapture(engine, setup);
    // A notice, not an answer: stdout stays what a script reads (`aish < in > out`).
    if (line) process.stderr.write(`aish: ${line}\n`);
    removeSignals();
    await engine.close();
  }
}
