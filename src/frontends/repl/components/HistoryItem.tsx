/** One finished item in the scrollback (<Static>): never re-rendered once written. */
import { Box, Text } from 'ink';
import type { UiItem } from '../store';

export function HistoryItem({ entry }: { entry: UiItem }) {
  const { item, rendered } = entry;
  switch (item.kind) {
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan" bold>
            {'› '}
          </Text>
          <Text>{item.text}</Text>
        </Box>
      );
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
      return <Text dimColor>{item.text}</Text>;
  }
}
