import { describe, expect, it } from 'vitest';
import {
  C0_CONTROLS_EXCEPT_TAB_NL,
  CONTROL_CHARS,
  CONTROL_CHARS_EXCEPT_TAB_NL,
  CSI_SEQUENCE,
  hasControlChars,
  stripControls,
} from '../../src/util/text';

/** Which of U+0000–U+00A0 a global regex removes. */
const removed = (re: RegExp): number[] => {
  const out: number[] = [];
  for (let cp = 0; cp <= 0xa0; cp++) if (String.fromCodePoint(cp).replace(re, '') === '') out.push(cp);
  return out;
};
const range = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, i) => a + i);

describe('control character sets', () => {
  it('CONTROL_CHARS: every C0 and C1 control and DEL', () => {
    expect(removed(CONTROL_CHARS)).toEqual([...range(0, 0x1f), ...range(0x7f, 0x9f)]);
  });

  it('CONTROL_CHARS_EXCEPT_TAB_NL keeps tab and newline', () => {
    expect(removed(CONTROL_CHARS_EXCEPT_TAB_NL)).toEqual([...range(0, 8), ...range(0x0b, 0x1f), ...range(0x7f, 0x9f)]);
  });

  it('C0_CONTROLS_EXCEPT_TAB_NL keeps tab, newline and the C1 range', () => {
    expect(removed(C0_CONTROLS_EXCEPT_TAB_NL)).toEqual([...range(0, 8), ...range(0x0b, 0x1f), 0x7f]);
  });

  it('hasControlChars matches CONTROL_CHARS and keeps no state between calls', () => {
    for (let cp = 0; cp <= 0xa0; cp++) expect(hasControlChars(`a${String.fromCodePoint(cp)}`)).toBe(removed(CONTROL_CHARS).includes(cp));
    expect([hasControlChars('\x1b'), hasControlChars('\x1b'), hasControlChars('\x1b')]).toEqual([true, true, true]);
  });

  it('stripControls normalises line ends and keeps tab and newline', () => {
    expect(stripControls('a\r\nb\rc\td\x1b[0m\x07\u009be\n')).toBe('a\nb\nc\td[0me\n');
  });

  it('CSI_SEQUENCE matches whole escape sequences', () => {
    expect('a\x1b[31mb\x1b[?2004hc\x1b[3~d'.replace(CSI_SEQUENCE, '')).toBe('abcd');
  });
});
