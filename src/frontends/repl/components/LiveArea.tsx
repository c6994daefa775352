/**
 * The part that changes while an answer streams: only its last lines, so the live area stays
 * shorter than the terminal (Ink repaints everything otherwise), and a spinner until text arrives.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { wrapColumns, wrapWords } from '../../../util/width';
import type { LiveState } from '../store';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

function Spinner({ since, label }: { since: number; label: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setFrame((f) => f + 1), 100);
    return () => clearInterval(t);
  }, []);
  const secs = Math.floor((Date.now() - since) / 1000);
  return (
    <Text color="cyan">
      {FRAMES[frame % FRAMES.length]} <Text dimColor>{`${label}${secs >= 1 ? ` ${secs}s` : ''} · Ctrl-C to cancel`}</Text>
    </Text>
  );
}

const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * The last `rows` visual lines of `text` at `width` columns. An answer is word-wrapped exactly as
 * its finished rendering wraps a plain paragraph, so lines don't move when it completes; command
 * output and code in an answer's fences keep their spacing (columns line up) and are cut at the width.
 */
export function tailLines(text: string, rows: number, width: number, kind: LiveState['kind'] = 'shell'): { lines: string[]; hidden: number } {
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

export function LiveArea({ live, rows, width }: { live: LiveState; rows: number; width: number }) {
  if (!live.text && !live.finished) {
    const label = live.kind === 'assistant' ? 'thinking' : live.label ?? 'running';
    return <Spinner since={live.startedAt} label={label} />;
  }
  const { lines, hidden } = tailLines(live.text, rows, Math.max(1, width), live.kind);
  return (
    <Box flexDirection="column">
      {live.label ? <Text dimColor>{`$ ${live.label}`}</Text> : null}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? '' : 's'} above`}</Text> : null}
      <Text dimColor={live.kind !== 'assistant'}>{lines.join('\n')}</Text>
    </Box>
  );
}
