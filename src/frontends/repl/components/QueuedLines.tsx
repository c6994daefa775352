/** Lines typed ahead while a turn runs (type-ahead.ts): one dim `queued: TEXT` row each, oldest first. */
import { Box, Text } from 'ink';
import { truncateColumns } from '../../../util/width';

/** At most this many rows: a long queue must not push the frame past the terminal's height. */
export const MAX_QUEUED_ROWS = 5;

/** The rows shown: a multi-line prompt as its first line and `…`; a long queue keeps its newest (Esc takes those). */
export function queuedRows(queued: readonly string[], width: number): string[] {
  const row = (text: string) => {
    const nl = text.indexOf('\n');
    return truncateColumns(`queued: ${nl === -1 ? text : `${text.slice(0, nl)} …`}`, Math.max(1, width));
  };
  if (queued.length <= MAX_QUEUED_ROWS) return queued.map(row);
  const shown = queued.slice(-(MAX_QUEUED_ROWS - 1));
  return [truncateColumns(`queued: … ${queued.length - shown.length} more`, Math.max(1, width)), ...shown.map(row)];
}

export function QueuedLines({ queued, width }: { queued: readonly string[]; width: number }) {
  if (queued.length === 0) return null;
  return (
    <Box flexDirection="column">
      {queuedRows(queued, width).map((r, i) => (
        <Text key={i} dimColor>
          {r}
        </Text>
      ))}
    </Box>
  );
}
