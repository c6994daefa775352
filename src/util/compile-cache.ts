/**
 * Writes V8's compiled code for what is loaded so far into the compile cache bin/aish.cjs enabled
 * (Node 22.10+; otherwise nothing). Node writes it only at a clean exit, so a session that is
 * killed, or the first start of a new build, would otherwise leave nothing for the next start.
 */
import module from 'node:module';

export function flushCompileCache(): void {
  try {
    (module as { flushCompileCache?: () => void }).flushCompileCache?.();
  } catch {
    // A cache that cannot be written only costs the next start its compile time.
  }
}
