/**
 * Ink keeps a copy of everything <Static> ever wrote (`fullStaticOutput`), to print it all again
 * when a frame grows taller than the terminal. The REPL keeps its frame shorter than that, and its
 * own redraw after a resize prints the items again itself (terminal-size.ts), so the copy is never
 * needed; in a long session it grows by every answer's ANSI rendering. Ink offers no option for
 * this, so the field is emptied on its instance for the stream (Ink keys its instances by stdout).
 */
// Ink's package exports do not include this module; it is the one Ink itself keeps instances in.
import instances from '../../../node_modules/ink/build/instances.js';

interface InkInternals {
  fullStaticOutput?: unknown;
  /** In debug mode (ink-testing-library) Ink prints the copy with every frame: it must stay. */
  options?: { debug?: boolean };
}

export function forgetStaticOutput(stdout: NodeJS.WriteStream): void {
  const ink = instances.get(stdout) as unknown as InkInternals | undefined;
  if (ink && !ink.options?.debug && typeof ink.fullStaticOutput === 'string') ink.fullStaticOutput = '';
}
