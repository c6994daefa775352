// The input line drawn by Ink: rows as wrapPrompt cuts them, the cursor on a whole cluster, and a
// long question on rows of its own.
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { InputLine, inputRowCount } from '../../../src/frontends/repl/components/InputLine';
import { emptyEditor } from '../../../src/frontends/repl/line-editor';
import { stringWidth } from '../../../src/util/width';

const frame = (el: React.ReactElement) => {
  const ui = render(el);
  const f = ui.lastFrame() ?? '';
  ui.unmount();
  // Without colours the block cursor is a plain space, and Ink drops trailing spaces.
  return f.split('\n').map((l) => l.trimEnd());
};

describe('InputLine', () => {
  it('150 × x at 40 columns: 38 after the prompt, then full rows, the cursor after the text', () => {
    const s = emptyEditor('x'.repeat(150));
    expect(frame(<InputLine state={s} prompt="› " dim={false} width={40} />)).toEqual([
      `› ${'x'.repeat(38)}`,
      'x'.repeat(40),
      'x'.repeat(40),
      'x'.repeat(32),
    ]);
    expect(inputRowCount(s, 40, '› ')).toBe(4);
  });

  it('a full last row puts the cursor on a row of its own, so the terminal never wraps it', () => {
    const s = emptyEditor('x'.repeat(78));
    expect(frame(<InputLine state={s} prompt="› " dim={false} width={40} />)).toEqual([`› ${'x'.repeat(38)}`, 'x'.repeat(40), '']);
    expect(inputRowCount(s, 40, '› ')).toBe(3);
  });

  it('the cursor on the space a full row broke at gets a row of its own too', () => {
    const text = `${'a'.repeat(38)} ${'b'.repeat(10)}`;
    const s = { ...emptyEditor(text), cursor: 38 };
    expect(frame(<InputLine state={s} prompt="› " dim={false} width={40} />)).toEqual([`› ${'a'.repeat(38)}`, '', 'b'.repeat(10)]);
  });

  it('the cursor covers a whole emoji', () => {
    const s = { ...emptyEditor('a👨‍👩‍👧b'), cursor: 1 };
    expect(frame(<InputLine state={s} prompt="› " dim={false} width={40} />)).toEqual(['› a👨‍👩‍👧b']);
  });

  it('a question wider than half the line goes on rows above the answer', () => {
    const q = `Replace the older item "${'remember to run the migrations before deploying '.repeat(2).trim()}"? [y/N] `;
    const rows = frame(<InputLine state={emptyEditor('y')} prompt={q} dim={false} width={40} />);
    for (const r of rows) expect(stringWidth(r)).toBeLessThanOrEqual(40);
    expect(rows.at(-1)).toMatch(/\[y\/N\] y$/);
    expect(rows.join(' ').replace(/\s+/g, ' ')).toContain('remember to run the migrations before deploying remember');
  });
});
