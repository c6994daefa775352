/** One finished item in the scrollback (<Static>): never re-rendered once written. */
import { Box, Text } from 'ink';
import type { UiItem } from '../store';
import { promptRows } from './InputLine';

/** The prompt as the input line showed it: the same rows at the same width. */
function Echo({ text, width }: { text: string; width: number }) {
  const { rows, prefix } = promptRows(text, width, '› ');
  // Spaces typed at the very end may leave an empty last row; the echo does not need it.
  while (rows.length > 1 && !rows.at(-1)!.head && rows.at(-1)!.width === 0) rows.pop();
  return (
    <Box marginTop={1} flexDirection="column">
      {rows.map((r, i) => (
        <Text key={i}>
          <Text color="cyan" bold>
            {prefix(r, i)}
          </Text>
          {text.slice(r.start, r.end)}
        </Text>
      ))}
    </Box>
  );
}

export function HistoryItem({ entry, width }: { entry: UiItem; width: number }) {
  const { item, rendered } = entry;
  switch (item.kind) {
    case 'user':
      return <Echo text={item.text} width={width} />;
    case 'assistant':
      return (
        <Box flexDirection="column">
          <Text>{rendered ?? item.text}</Text>
          {item.interrupted ? <Text color="yellow">[interrupted]</Text> : null}
        </Box>
      );
    case 'error':
      return <Text color="red">{`✗ ${item.text}`}</Text>;
    case 'warn':
      return <Text color="yellow">{`! ${item.text}`}</Text>;
    case 'shell':
      return <Text dimColor>{item.text}</Text>;
    case 'tool':
      return <Text color="magenta">{item.text}</Text>;
    default:
      // Rendered Markdown (`:session`'s working state) keeps its own styling, as answers do.
      return rendered !== undefined ? <Text>{rendered}</Text> : <Text dimColor>{item.text}</Text>;
  }
}
