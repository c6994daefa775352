/**
 * What Ink writes while it takes the screen over from the frame drawn before it mounted. When that
 * frame is final (the last start's settled frame from bin/frame-cache.cjs, or a first frame whose
 * status was already known) and Ink's first frame is the same, nothing is written: the screen already shows it, and Ink's idea of what is on screen (its
 * line count, the cursor below the frame) holds. Any other first write — a different frame, text
 * printed above it — erases the early frame first, so Ink draws into a clean place. The same pass
 * remembers Ink's frames, so a settled one can be cached for the next start (frame-cache.ts).
 */
import { EMPTY_PROMPT_LINE, HIDE_CURSOR } from './first-frame';

const SYNC_BEGIN = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';

// Ink's log-update writes each frame as ansi-escapes' eraseLines(previous line count) + the frame.
const ERASE_LINES = /^(?:\x1b\[2K(?:\x1b\[1A)?)*(?:\x1b\[G)?/;
// A frame worth caching holds text, colours (SGR) and newlines only (bin/frame-cache.cjs checks the same).
const PLAIN_FRAME = /^(?:[^\x00-\x09\x0b-\x1f\x7f-\x9f]|\x1b\[[0-9;]*m)*$/;

/** The frame a log-update write draws (without the erase in front), or undefined for any other write. */
export function frameOf(chunk: string): string | undefined {
  const body = chunk.slice(ERASE_LINES.exec(chunk)![0].length);
  return body.endsWith('\n') && PLAIN_FRAME.test(body) ? body : undefined;
}

/** Writes that only set modes the early frame already set, or bracket a frame. */
const bracketing = (chunk: string) => chunk === HIDE_CURSOR || chunk === SYNC_BEGIN || chunk === SYNC_END;

/**
 * Filters Ink's writes during the hand-over: `pass(chunk)` is what to write instead ('' for nothing).
 * `erase` takes the early frame off the screen (cursor to its first line, clear below).
 */
export class FrameHandover {
  private state: 'predicting' | 'first' | 'closing' | 'done';
  private held: string[] = [];

  constructor(
    private readonly predicted: string | undefined,
    private readonly erase: string,
  ) {
    this.state = predicted ? 'predicting' : 'first';
  }

  /** Nothing more to filter: every later write goes through as it is. */
  get done(): boolean {
    return this.state === 'done';
  }

  pass(chunk: string): string {
    switch (this.state) {
      case 'predicting':
        if (bracketing(chunk)) {
          this.held.push(chunk);
          return '';
        }
        if (chunk !== this.predicted) return this.takeOver(chunk);
        // Ink's first frame is the one on screen (it writes no erase: it has drawn nothing yet).
        this.held = [];
        this.state = 'closing';
        return '';
      case 'closing':
        // The end mark of the frame that was not written.
        this.state = 'done';
        return chunk === SYNC_END ? '' : chunk;
      case 'first':
        return this.takeOver(chunk);
      case 'done':
        return chunk;
    }
  }

  private takeOver(chunk: string): string {
    this.state = 'done';
    const held = this.held.join('');
    this.held = [];
    return this.erase + held + chunk;
  }
}

/** Ink's latest frame, and whether anything but frames was written (text printed above them). */
export class FrameRecorder {
  private last: string | undefined;
  private other = false;

  /** Text was printed above the frames: no frame of this start is what the next one shows first. */
  get spoiled(): boolean {
    return this.other;
  }

  see(chunk: string): void {
    if (bracketing(chunk)) return;
    const frame = frameOf(chunk);
    if (frame === undefined) this.other = true;
    else this.last = frame;
  }

  /**
   * The frame to cache: only an idle prompt (empty editor on the first line) with nothing printed
   * above it, which is what the next start shows before anything happens.
   */
  settled(): string | undefined {
    if (this.other || !this.last?.startsWith(`${EMPTY_PROMPT_LINE}\n`)) return undefined;
    return this.last;
  }
}
