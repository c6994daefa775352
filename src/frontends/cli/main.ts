/**
 * The entry (dist/cli.js). Plain `aish`, the start that matters most, goes straight to its session
 * without loading the command-line parser; any arguments go to commander (program.ts).
 */
import { setup } from '../../config/setup';
import { guardOutput } from '../../util/output-guard';
import { reportFailure } from './failure';
import { startSession } from './start-session';

async function main(argv: string[]): Promise<number> {
  if (argv.length > 0) return (await import('./program')).main(argv);
  try {
    // What commander's defaults give for no arguments: memory on.
    return await startSession(await setup({}), { memory: true });
  } catch (err) {
    return reportFailure(err);
  }
}

// Before anything is written: every byte to stdout and stderr passes the one output boundary.
guardOutput();
process.exitCode = await main(process.argv.slice(2));
