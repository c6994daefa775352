/**
 * Plain `aish` on a terminal, the start that matters most: the launcher (bin/aish.cjs) loads this
 * entry instead of the full command line. It is bundled as one file without commander or the other
 * commands (Node's ES module loader costs ~0.5 ms per extra file, ~7 ms in all here), draws the
 * first frame, and then loads the UI from dist/repl-ui.js (repl-ui-entry.ts). It does what main.ts
 * does for no arguments.
 */
import { setup } from '../../config/setup';
import { abandonEarlyPrompt } from '../repl/first-frame';
import { reportFailure } from './failure';
import { runReplFront, type RunRepl } from './repl-front';

async function start(): Promise<number> {
  try {
    const s = await setup({});
    const opts = { memory: true };
    const ui = new URL('./repl-ui.js', import.meta.url).href;
    return await runReplFront(s, opts, async () => ((await import(ui)) as { runRepl: RunRepl }).runRepl);
  } catch (err) {
    abandonEarlyPrompt(); // the launcher's prompt line, if the REPL never started
    return reportFailure(err);
  }
}

process.exitCode = await start();
