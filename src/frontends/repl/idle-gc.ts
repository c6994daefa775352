/**
 * A full garbage collection when a turn ends and aish waits for the user. V8 sizes its heap
 * lazily, so a long session's RSS grows with garbage nobody holds (heap snapshots: finished turns
 * keep ~0.5 MB per 100 turns); collecting while the user reads costs nothing they notice.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  } catch {
    gc = null; // not offered by this runtime: nothing to do
  }
  return gc;
}

/**
 * `collectWhenIdle(busy)` on every status change: collects once, `delayMs` after busy turns false
 * (after the turn's last frame). A turn typed ahead meanwhile does not cancel it: the collection
 * then runs while that turn waits for the model's first token, which hides it just as well.
 */
export function idleCollector(delayMs = 50, collect: () => void = () => collector()?.()): (busy: boolean) => void {
  let wasBusy = false;
  let pending = false;
  return (busy) => {
    if (busy) {
      wasBusy = true;
      return;
    }
    if (!wasBusy || pending) return;
    wasBusy = false;
    pending = true;
    setTimeout(() => {
      pending = false;
      collect();
    }, delayMs).unref();
  };
}
