/** How a command that failed ends: one `aish: …` line on stderr and its exit status. */
import { AishError, ConfigError, formatError } from '../../util/errors';
import { warn } from './output';

export function reportFailure(err: unknown): number {
  if (err instanceof AishError) {
    warn(`aish: ${formatError(err)}`);
    // A config module may have left timers or handles behind (one that never settled, say):
    // nothing else is running yet, so end now instead of waiting for them.
    if (err instanceof ConfigError) process.exit(err.exitCode);
    return err.exitCode;
  }
  warn(`aish: ${formatError(err)}${process.env.AISH_DEBUG === '1' ? '' : ' (AISH_DEBUG=1 shows details)'}`);
  return 1;
}
