/** The line editor's view: prompt, text with a block cursor, continuation lines for pastes. */
import { Box, Text } from 'ink';
import { nextBoundary } from '../clusters';
import type { EditorState } from '../line-editor';

/**
 * At most `maxLines` lines are shown, around the cursor: a long paste must not make the live area
 * taller than the terminal (Ink then repaints the whole scrollback every frame).
 */
export function InputLine({ state, prompt, dim, maxLines = 12 }: { state: EditorState; prompt: string; dim: boolean; maxLines?: number }) {
  const before = state.text.slice(0, state.cursor);
  // The block cursor covers the whole cluster under it: an emoji drawn inverse, never half of one.
  const next = nextBoundary(state.text, state.cursor);
  const at = state.text.slice(state.cursor, next);
  const after = state.text.slice(next);
  const cursorChar = at === '' || at === '\n' ? ' ' : at;
  const all = (before + '\u0000' + (at === '\n' ? '\n' : '') + after).split('\n');
  const cursorLine = all.findIndex((l) => l.includes('\u0000'));
  const first = all.length <= maxLines ? 0 : Math.min(Math.max(0, cursorLine - maxLines + 2), all.length - maxLines);
  const lines = all.slice(first, first + maxLines);
  const hiddenAbove = first;
  const hiddenBelow = all.length - first - lines.length;
  return (
    <Box flexDirection="column">
      {hiddenAbove > 0 ? <Text dimColor>{`  ↑ ${hiddenAbove} more line${hiddenAbove === 1 ? '' : 's'}`}</Text> : null}
      {lines.map((line, j) => {
        const i = first + j;
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
      {hiddenBelow > 0 ? <Text dimColor>{`  ↓ ${hiddenBelow} more line${hiddenBelow === 1 ? '' : 's'}`}</Text> : null}
    </Box>
  );
}
