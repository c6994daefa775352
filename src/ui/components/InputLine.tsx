/** The line editor's view: prompt, text with a block cursor, continuation lines for pastes. */
import { Box, Text } from 'ink';
import type { EditorState } from '../line-editor';

export function InputLine({ state, prompt, dim }: { state: EditorState; prompt: string; dim: boolean }) {
  const before = state.text.slice(0, state.cursor);
  const at = state.text[state.cursor];
  const after = state.text.slice(state.cursor + 1);
  const cursorChar = at === undefined || at === '\n' ? ' ' : at;
  const lines = (before + '\u0000' + (at === '\n' ? '\n' : '') + after).split('\n');
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => {
        const mark = line.indexOf('\u0000');
        const head = i === 0 ? prompt : '… ';
        return (
          <Text key={i} dimColor={dim}>
            <Text color="cyan" bold>
              {head}
            </Text>
            {mark === -1 ? (
              line
            ) : (
              <>
                {line.slice(0, mark)}
                <Text inverse>{cursorChar}</Text>
                {line.slice(mark + 1)}
              </>
            )}
          </Text>
        );
      })}
    </Box>
  );
}
