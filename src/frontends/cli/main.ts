/**
 * The entry of dist/cli.js: plain `aish`, the start that matters most, straight to its session.
 * Any arguments go through commander in dist/cli-args.js (./main-args.ts), a bundle of its own
 * (scripts/build.mjs), so the command line's lazy parts do not cut this start's code into more files.
 */
import { setup } from '../../config/setup';
import { guardOutput } from '../../util/output-guard';
import { reportFailure } from './failure';
import { startChat } from './start-chat';

async function main(): Promise<number> {
  try {
    // What commander's defaults give for no arguments: memory on. The command line's other sessions
    // (-p, --norris, -e) and its resume wait are not in this bundle at all.
    return await startChat(await setup({}), { memory: true });
  } catch (err) {
    return reportFailure(err);
  }
}

if (process.argv.length > 2) {
  // bin/aish.cjs sends arguments to the other bundle itself; `node dist/cli.js ARGS` lands there too.
  // A computed specifier, so the bundler leaves that bundle out of this one.
  const door = new URL('./cli-args.js', import.meta.url).href;
  await import(door);
} else {
  // Before anything is written: every byte to stdout and stderr passes the one output boundary.
  guardOutput();
  process.exitCode = await main();
}
