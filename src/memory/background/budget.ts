/**
 * The memory budget, read from the config once (by the session, or by a command that has no
 * session) and handed on as this value: every [background] choice, check and message uses it.
 */
import type { AishConfig } from '../../config/types';

/** Memory sent with one turn ([background] + [recall]) stays within this many characters, or the background budget if larger. */
const TURN_MEMORY_CHARS = 3000;

export interface MemoryBudget {
  /** `memory.injectMaxChars`: the [background] block, header included; 0 when memory is off. */
  readonly background: number;
  /** [background] and a turn's [recall] together: [background]'s filler gives way to [recall] past it. */
  readonly turn: number;
}

export function memoryBudget(config: AishConfig): MemoryBudget {
  const background = config.memory ? config.memory.injectMaxChars : 0;
  return { background, turn: Math.max(TURN_MEMORY_CHARS, background) };
}

/**
 * Whether a line of `len` characters still fits in a block of `maxChars` with `used` taken (header
 * and newlines counted); `room < 10`: no line fits any more (every line is at least `- (fact) x`).
 */
export function lineFits(used: number, len: number, maxChars: number): boolean {
  const room = maxChars - used - 1;
  return room >= 10 && len <= room;
}

/** No line can fit any more: what is left is only counted. */
export function blockFull(used: number, maxChars: number): boolean {
  return maxChars - used - 1 < 10;
}
