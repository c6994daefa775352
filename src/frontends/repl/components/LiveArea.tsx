/**
 * The part that changes while an answer streams: only its last lines, so the live area stays
 * shorter than the terminal (Ink repaints everything otherwise), and a spinner until text arrives.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
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

/** The last `rows` visual lines of `text` at `width` columns. */
export function tailLines(text: string, rows: number, width: number): { lines: string[]; hidden: number } {
  const visual: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= width) visual.push(line);
    else for (let i = 0; i < line.length; i += width) visual.push(line.slice(i, i + width));
  }
  const hidden = Math.max(0, visual.length - rows);
  return { lines: visual.slice(hidden), hidden };
}

export function LiveArea({ live, rows, width }: { live: LiveState; rows: number; width: number }) {
  if (!live.text && !live.finished) {
    const label = live.kind === 'assistant' ? 'thinking' : live.label ?? 'running';
    return <Spinner since={live.startedAt} label={label} />;
  }
  const { lines, hidden } = tailLines(live.text, rows, Math.max(20, width));
  return (
    <Box flexDirection="column">
      {live.label ? <Text dimColor>{`$ ${live.label}`}</Text> : null}
      {hidden > 0 ? <Text dimColor>{`… ${hidden} more line${hidden === 1 ? '' : 's'} above`}</Text> : null}
      <Text dimColor={live.kind !== 'assistant'}>{lines.join('\n')}</Text>
    </Box>
  );
}
