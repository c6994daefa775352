/**
 * The terminal's size as React state, so a resize redraws the frame at once (Ink re-lays out on
 * 'resize' but our components only read the width when React renders them).
 *
 * Narrowing needs more: the terminal re-wraps the lines already drawn, so the frame Ink erases by
 * counting its old lines now takes more rows, and the rest stays behind as a stale copy of the
 * prompt and status line. No count of rows is right on every terminal (some re-wrap, some cut), so
 * the screen and scrollback are cleared and everything is drawn again at the new width.
 */
import { useEffect, useRef, useState } from 'react';

const CLEAR_ALL = '\x1b[2J\x1b[3J\x1b[H';
// A window dragged narrower sends a burst of resizes: one redraw at the end of it.
const REDRAW_MS = 80;

export interface TerminalSize {
  columns: number;
  rows: number;
  /** Changes after each full redraw: the key that makes <Static> print every item again. */
  epoch: number;
}

/**
 * `write` must be Ink's (useStdout().write): it erases the frame, writes, and draws the frame again,
 * so the frame is back even when nothing in it changed.
 */
export function useTerminalSize(
  stdout: NodeJS.WriteStream,
  opts: { paused: boolean; write: (data: string) => void; redraw: () => void },
): TerminalSize {
  const read = () => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [size, setSize] = useState<TerminalSize>(() => ({ ...read(), epoch: 0 }));
  const optsRef = useRef(opts);
  optsRef.current = opts;
  useEffect(() => {
    let last = read().columns;
    let timer: NodeJS.Timeout | undefined;
    let narrowed = false;
    const onResize = () => {
      const now = read();
      if (now.columns < last) narrowed = true;
      last = now.columns;
      setSize((s) => ({ ...now, epoch: s.epoch }));
      if (!narrowed) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        narrowed = false;
        // A full-screen child owns the terminal: leave its screen alone.
        if (optsRef.current.paused) return;
        optsRef.current.write(CLEAR_ALL);
        optsRef.current.redraw();
        setSize((s) => ({ ...read(), epoch: s.epoch + 1 }));
      }, REDRAW_MS);
    };
    stdout.on('resize', onResize);
    return () => {
      clearTimeout(timer);
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}
