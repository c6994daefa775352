/** The line editor's view: prompt, text with a block cursor, continuation lines for pastes. */
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { columns, graphemes, wrapWords } from '../../../util/width';
import type { EditorState } from '../line-editor';
import { cursorRow, wrapPrompt, type PromptRow } from '../prompt-wrap';

/** Prompt text's rows: `› ` on the first line, `… ` on later lines of a multi-line text. */
export function promptRows(
  text: string,
  width: number,
  prompt: string,
): { rows: PromptRow[]; prefix: (r: PromptRow, i: number) => string } {
  const rows = wrapPrompt(text, width, columns(prompt));
  return { rows, prefix: (r, i) => (!r.head ? '' : i === 0 ? prompt : '… ') };
}

/** The rows the input line takes at `width` (what the App reserves for it). */
export function inputRowCount(state: EditorState, width: number, prompt: string): number {
  const l = layout(state, width, prompt);
  return l.above.length + l.rows.length;
}

/**
 * A question wider than half the line (a memory item quoted in full) is word-wrapped on rows of its
 * own above the answer, which keeps at least half a line to type in.
 */
function splitQuestion(prompt: string, width: number): { above: string[]; prompt: string } {
  if (columns(prompt) <= width / 2) return { above: [], prompt };
  const lines = wrapWords(prompt.trimEnd(), width);
  const last = `${lines.pop() ?? ''}${prompt.endsWith(' ') ? ' ' : ''}`;
  return columns(last) <= width / 2 ? { above: lines, prompt: last } : { above: [...lines, last.trimEnd()], prompt: '' };
}

function layout(state: EditorState, width: number, question: string) {
  const { above, prompt } = splitQuestion(question, width);
  const { rows, prefix } = promptRows(state.text, width, prompt);
  const cur = cursorRow(rows, state.cursor);
  const row = rows[cur.row]!;
  const room = width - (row.head ? columns(prompt) : 0);
  // The block cursor after the last character of a full row (at the end of a line, or on the space
  // a row broke at) would make the terminal wrap: give it a row of its own.
  if (cur.at === row.end - row.start && row.width + 1 > room) {
    const extra: PromptRow = { start: row.end, end: row.end, width: 0, head: false };
    rows.splice(cur.row + 1, 0, extra);
    return { above, rows, prefix, cur: { row: cur.row + 1, at: 0 } };
  }
  return { above, rows, prefix, cur };
}

/**
 * At most `maxLines` rows are shown, around the cursor: a long paste must not make the live area
 * taller than the terminal (Ink then repaints the whole scrollback every frame).
 */
export function InputLine({
  state,
  prompt,
  dim,
  width,
  maxLines = 12,
}: {
  state: EditorState;
  prompt: string;
  dim: boolean;
  width: number;
  maxLines?: number;
}) {
  const { above, rows, prefix, cur } = layout(state, width, prompt);
  const first = rows.length <= maxLines ? 0 : Math.min(Math.max(0, cur.row - maxLines + 2), rows.length - maxLines);
  const shown = rows.slice(first, first + maxLines);
  const hiddenAbove = first;
  const hiddenBelow = rows.length - first - shown.length;
  return (
    <Box flexDirection="column">
      {above.map((q, i) => (
        <Text key={`q${i}`} color="cyan" bold>
          {q}
        </Text>
      ))}
      {hiddenAbove > 0 ? <Text dimColor>{`  ↑ ${hiddenAbove} more line${hiddenAbove === 1 ? '' : 's'}`}</Text> : null}
      {shown.map((r, j) => {
        const i = first + j;
        const line = state.text.slice(r.start, r.end);
        let body: ReactNode = line;
        if (i === cur.row) {
          // The whole grapheme cluster under the cursor, never half of an emoji.
          const after = graphemes(state.text.slice(r.start + cur.at, Math.max(r.end, r.start + cur.at)));
          const at = after[0];
          body = (
            <>
              {line.slice(0, cur.at)}
              <Text inverse>{at ?? ' '}</Text>
              {line.slice(cur.at + (at?.length ?? 0))}
            </>
          );
        }
        return (
          <Text key={i} dimColor={dim}>
            <Text color="cyan" bold>
              {prefix(r, i)}
            </Text>
            {body}
          </Text>
        );
      })}
      {hiddenBelow > 0 ? <Text dimColor>{`  ↓ ${hiddenBelow} more line${hiddenBelow === 1 ? '' : 's'}`}</Text> : null}
    </Box>
  );
}
