/**
 * Ink's first frames, between the frame drawn before it mounted and a settled idle prompt: the
 * hand-over (frame-handover.ts) decides what reaches the terminal, and once the screen has been
 * quiet for a moment with memory loaded, the frame is kept for the next start (frame-cache.ts).
 * Then stdout is left alone.
 */
import { locateConfig } from '../../config/load';
import type { Setup } from '../../config/setup';
import type { StatusInfo } from '../../core/status';
import { inboxPath } from '../../memory/inbox-path';
import { truncateColumns } from '../../util/width';
import type { FirstFrame } from './first-frame';
import { saveFrame } from './frame-cache';
import { FrameHandover, FrameRecorder } from './frame-handover';
import { statusText } from './status-text';

/** Quiet this long after Ink's last write (with memory loaded) means the frame has settled. */
const SETTLE_MS = 250;

type Write = NodeJS.WriteStream['write'];

/**
 * Filter stdout for the hand-over and watch for a settled frame. `settled(frame)` is asked each
 * time the screen goes quiet: it answers true when done (kept, or nothing to keep), false to wait
 * for the next quiet moment.
 */
export function watchFirstFrames(
  first: FirstFrame,
  predicted: string | undefined,
  settled: (recorder: FrameRecorder) => boolean,
  out: NodeJS.WriteStream = process.stdout,
): { flush(): void } {
  const handover = new FrameHandover(predicted, first.eraseSequence);
  const recorder = new FrameRecorder();
  const write = out.write;
  let watching = true;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    if (out.write === ours) out.write = write;
  };
  const check = () => {
    if (!watching || !settled(recorder)) return;
    watching = false;
    if (handover.done) release();
  };
  const ours = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (watching) {
      recorder.see(text);
      clearTimeout(timer);
      timer = setTimeout(check, SETTLE_MS);
      timer.unref();
    }
    const pass = handover.pass(text);
    if (!watching && handover.done) release();
    if (pass === '') {
      const cb = rest.find((a): a is () => void => typeof a === 'function');
      if (cb) queueMicrotask(cb);
      return true;
    }
    return (write as (s: string, ...r: unknown[]) => boolean).call(out, pass, ...rest);
  }) as Write;
  out.write = ours;
  // At quit, before the last frames: a session shorter than the quiet period still leaves its frame.
  return {
    flush() {
      clearTimeout(timer);
      check();
      watching = false;
      release();
    },
  };
}

/** The files a frame was drawn from: the config (or where it would be), memory and its inbox. */
export function frameSources(setup: Setup): string[] {
  const memory = setup.paths.memoryPath;
  return [setup.configPath ?? locateConfig(undefined).path, memory, inboxPath(memory)];
}

/**
 * `settled` for watchFirstFrames: keep the frame once memory is loaded, nothing runs, and the frame
 * shows the status as it is now (at quit, Ink may not have drawn the latest change yet).
 */
export function keepSettledFrame(
  first: FirstFrame,
  setup: Setup,
  status: () => StatusInfo,
  width: () => number = () => process.stdout.columns || 80,
): (recorder: FrameRecorder) => boolean {
  return (recorder) => {
    const slot = first.cache;
    if (!slot) return true;
    if (recorder.spoiled) return true;
    const s = status();
    const frame = recorder.settled();
    // Not yet: memory still loading, a draft in the editor (it may be deleted again), or a frame
    // behind the status.
    if (s.busy || s.memoryInjected === null || frame === undefined) return false;
    if (!frame.includes(statusText(s, width(), truncateColumns))) return false;
    if (!(first.fromCache && frame === first.predicted)) saveFrame(slot, frame, frameSources(setup));
    return true;
  };
}
