/**
 * The part that changes while an answer streams: only its last lines, so the live area stays
 * shorter than the terminal (Ink repaints everything otherwise), and a spinner until text arrives.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { truncateColumns, wrapColumns, wrapWords } from '../../../util/width';
import type { LiveState } from '../store';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `⠋ running · 3s · Ctrl-C to cancel`, or while a failed call waits: `⠋ retrying in 2s (attempt 2/3) · …`. */
export function spinnerText(live: Pick<LiveState, 'kind' | 'startedAt' | 'retry'>, frame: number, now: number): string {
  const f = FRAMES[frame % FRAMES.length];
  const r = live.retry;
  if (r) {
    const left = Math.ceil((r.at - now) / 1000);
    const what = left > 0 ? `retrying in ${left}s` : 'retrying';
    return `${f} ${what} (attempt ${r.attempt}/${r.of}) · Ctrl-C to cancel`;
  }
  const label = live.kind === 'assistant' ? 'thinking' : 'running';
  return `${f} ${label} · ${Math.floor((now - live.startedAt) / 1000)}s · Ctrl-C to cancel`;
}

// Ticks ten times a second: the elapsed time and the frame move even when no output comes.
function Spinner({ live }: { live: LiveState }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setFrame((f) => f + 1), 100);
    return () => clearInterval(t);
  }, []);
  const text = spinnerText(live, frame, Date.now());
  return (
    <Text color="cyan">
      {text.slice(0, 1)}
      <Text dimColor>{text.slice(1)}</Text>
    </Text>
  );
}

const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * The last `rows` visual lines of `text` at `width` columns. An answer is word-wrapped exactly as
 * its finished rendering wraps a plain paragraph, so lines don't move when it completes; command
 * output and code in an answer's fences keep their spacing (columns line up) and are cut at the width.
 */
export function tailLines(
  text: string,
  rows: number,
  width: number,
  kind: LiveState['kind'] = 'shell',
): { lines: string[]; hidden: number } {
  const visual: string[] = [];
  let fence = ''; // the answer's open code fence, if any
  for (const line of text.split('\n')) {
    let prose = kind === 'assistant' && !fence;
    const mark = kind === 'assistant' ? FENCE.exec(line)?.[1] : undefined;
    if (mark) {
      if (!fence) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = '';
      prose = false;
    }
    for (const v of prose ? wrapWords(line, width) : wrapColumns(line, width)) visual.push(v);
  }
  const hidden = Math.max(0, visual.length - rows);
  return { lines: visual.slice(hidden), hidden };
}

/**
 * Rows for the live area's text when `inputRows` go below it: a frame as tall as the terminal makes
 * Ink clear the whole screen, scrollback too, on every frame. Up to 3 in a short terminal (a label,
 * `… more lines above`, the prompt and the status line take 4 more, plus one spare row), else
 * what 8 rows for the rest leave.
 */
export function liveRows(termRows: number, inputRows: number): number {
  return Math.max(1, Math.min(3, termRows - 5 - inputRows), termRows - 8 - inputRows);
}

export function LiveArea({ live, rows, width }: { live: LiveState; rows: number; width: number }) {
  const running = !live.finished;
  // An answer shows the spinner only until its text arrives; a command all the time it runs.
  const spin = running && (live.kind !== 'assistant' || !live.text);
  if (live.kind === 'assistant' && !live.text && spin) return <Spinner live={live} />;
  const { lines, hidden } = tailLines(live.text, Math.max(1, rows - (spin ? 1 : 0)), Math.max(1, width), live.kind);
  return (
    <Box flexDirection="column">
      {live.label ? <Text dimColor>{truncateColumns(live.kind === 'shell' ? `$ ${live.label}` : live.label, width)}</Text> : null}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? '' : 's'} above`}</Text> : null}
      {live.text ? <Text dimColor={live.kind !== 'assistant'}>{lines.join('\n')}</Text> : null}
      {spin ? <Spinner live={live} /> : null}
    </Box>
  );
}
