// The PTY tests judge the screen through this emulator, so it must behave as terminals do where
// it matters: autowrap with the pending-wrap column, wide characters, Ink's erase sequences, and
// re-wrapping on resize.
import { describe, expect, it } from 'vitest';
import { Screen } from '../helpers/screen';

describe('Screen', () => {
  it('wraps at the last column only when the next character comes (pending wrap)', () => {
    const s = new Screen(4, 3);
    s.write('abcd\r\nef');
    expect(s.screenLines()).toEqual(['abcd', 'ef', '']);
    s.write('ghi');
    expect(s.screenLines()).toEqual(['abcd', 'efgh', 'i']);
    expect(s.logicalLines()).toEqual(['abcd', 'efghi']);
  });

  it('a wide character does not straddle the edge', () => {
    const s = new Screen(5, 2);
    s.write('ab日本語');
    expect(s.screenLines()).toEqual(['ab日', '本語']);
  });

  it("Ink's erase: lines up, erase, rewrite", () => {
    const s = new Screen(10, 4);
    s.write('one\r\ntwo\r\n');
    s.write('\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[Gthree\r\n');
    expect(s.allLines()).toEqual(['three']);
  });

  it('scrolls into the scrollback, and CSI 3 J clears it', () => {
    const s = new Screen(10, 2);
    s.write('1\r\n2\r\n3\r\n4');
    expect(s.screenLines()).toEqual(['3', '4']);
    expect(s.allLines()).toEqual(['1', '2', '3', '4']);
    s.write('\x1b[2J\x1b[3J\x1b[H');
    expect(s.allLines()).toEqual([]);
  });

  it('re-wraps on resize and keeps the cursor on its character', () => {
    const s = new Screen(10, 5);
    s.write('abcdefghij\r\nxyz\r\n');
    s.resize(4, 5);
    expect(s.allLines()).toEqual(['abcd', 'efgh', 'ij', 'xyz']);
    expect(s.cursor()).toEqual({ x: 0, y: 4 });
    s.write('!');
    expect(s.allLines()).toEqual(['abcd', 'efgh', 'ij', 'xyz', '!']);
    s.resize(10, 5);
    expect(s.allLines()).toEqual(['abcdefghij', 'xyz', '!']);
  });
});
