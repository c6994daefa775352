/**
 * Plain `aish` on a terminal, the start that matters most: the launcher (bin/aish.cjs) loads this
 * entry instead of the full command line, so commander and the other commands' code are neither
 * loaded nor set up before the first frame. It does what main.ts does for no arguments.
 */
import { setup } from '../../config/setup';
import { abandonEarlyPrompt } from '../repl/first-frame';
import { reportFailure } from './failure';
import { memoryPreloader, runReplFront } from './repl-front';

async function start(): Promise<number> {
  try {
    const s = await setup({});
    const preload = memoryPreloader(s, s.config.memory !== false, new URL('./memory-worker.js', import.meta.url));
    return await runReplFront(s, { memory: true }, preload);
  } catch (err) {
    abandonEarlyPrompt(); // the launcher's prompt line, if the REPL never started
    return reportFailure(err);
  }
}

process.exitCode = await start();
