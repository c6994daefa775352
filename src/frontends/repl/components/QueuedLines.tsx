/** Lines typed ahead while a turn runs (type-ahead.ts): one dim `queued: TEXT` row each, oldest first. */
import { Box, Text } from 'ink';
import { truncateColumns } from '../../../util/width';

/** One row per entry: a multi-line prompt shows its first line and `…`. */
export function queuedRow(text: string, width: number): string {
  const nl = text.indexOf('\n');
  return truncateColumns(`queued: ${nl === -1 ? text : `${text.slice(0, nl)} …`}`, Math.max(1, width));
}

export function QueuedLines({ queued, width }: { queued: readonly string[]; width: number }) {
  if (queued.length === 0) return null;
  return (
    <Box flexDirection="column">
      {queued.map((q, i) => (
        <Text key={i} dimColor>
          {queuedRow(q, width)}
        </Text>
      ))}
    </Box>
  );
}
