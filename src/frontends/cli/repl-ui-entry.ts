/**
 * The REPL's UI as its own entry (dist/repl-ui.js), for the plain `aish` entry (repl-entry.ts),
 * which is bundled on its own so it loads as one file. The two bundles hold separate copies of
 * shared modules, so an error from the UI is reported here, by this bundle's copy (its error
 * classes), and only the exit status crosses over.
 */
import type { Setup } from '../../config/setup';
import type { EngineOptions } from '../../core/options';
import type { FirstFrame } from '../repl/first-frame';
import { runRepl as run } from '../repl/repl';
import { reportFailure } from './failure';

export async function runRepl(s: Setup, opts: EngineOptions, frame: FirstFrame): Promise<number> {
  try {
    return await run(s, opts, frame);
  } catch (err) {
    frame.abandon();
    return reportFailure(err);
  }
}
