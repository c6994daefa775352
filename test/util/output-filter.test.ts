import { describe, expect, it } from 'vitest';
import { escapeForJson, filterOutput } from '../../src/util/output-filter';
import { ESCAPE_PAYLOADS, rawEscape } from '../helpers/escape-payloads';

describe('filterOutput', () => {
  for (const [name, payload] of Object.entries(ESCAPE_PAYLOADS)) {
    it(`shows ${name} instead of sending it, in both modes`, () => {
      for (const mode of ['line', 'screen'] as const) {
        const out = filterOutput(`before ${payload} after`, mode);
        expect(rawEscape(out, mode === 'screen')).toBeNull();
        expect(out).toMatch(/^before .* after$/s);
      }
    });
  }

  it('spells controls visibly: caret form for C0, <U+XXXX> for C1, bidi and formats', () => {
    expect(filterOutput('\u001b]0;t\u0007')).toBe('^[]0;t^G');
    expect(filterOutput('a\u202Eb\u009bc\u200Bd')).toBe('a<U+202E>b<U+009B>c<U+200B>d');
    expect(filterOutput('x\u{E0041}')).toBe('x<U+E0041>');
  });

  it("keeps aish's own styling, tabs, newlines and CRLF", () => {
    const styled = '\u001b[1;38;5;208mbold\u001b[0m\tcol\r\nnext\n';
    expect(filterOutput(styled)).toBe(styled);
    expect(filterOutput('\u001b[38;5;8mgrey\u001b[48;2;8;8;8m')).toBe('\u001b[38;5;8mgrey\u001b[48;2;8;8;8m');
    expect(filterOutput('\u001b[8mhidden\u001b[0m')).toBe('^[[8mhidden\u001b[0m');
  });

  it('without colour (NO_COLOR): every colour form goes, bold, dim, inverse and resets stay', () => {
    const noColour = (t: string) => filterOutput(t, 'screen', true);
    expect(noColour('\u001b[1m\u001b[36m› \u001b[39m\u001b[22m\u001b[7m \u001b[27m')).toBe('\u001b[1m› \u001b[22m\u001b[7m \u001b[27m');
    expect(noColour('\u001b[1;38;5;208mbold\u001b[0m')).toBe('\u001b[1mbold\u001b[0m');
    expect(noColour('\u001b[2;48;2;8;8;8;4mx\u001b[m')).toBe('\u001b[2;4mx\u001b[m');
    expect(noColour('\u001b[91;104;59m\u001b[38:2::1:2:3mx\u001b[3m')).toBe('x\u001b[3m');
    expect(noColour('\u001b[8mhidden')).toBe('^[[8mhidden');
  });

  it("lets readline's line editing through only in edit mode: in line mode data cannot move the cursor", () => {
    const edit = '\r\u001b[2K\u001b[1G\u001b[0J> yes\u001b[3D';
    expect(filterOutput(edit, 'edit')).toBe(edit);
    expect(filterOutput('ok\u001b[1A\u001b[2K\rspoofed', 'line')).toBe('ok^[[1A^[[2K^Mspoofed');
    expect(filterOutput('\u001b[2J', 'edit')).toBe('^[[2J');
  });

  it("lets the REPL's frame work through only in screen mode", () => {
    const frame = '\u001b[?2026h\u001b[2K\u001b[1A\u001b[2K\u001b[G\u001b[?25l\u001b[2J\u001b[3J\u001b[H\u001b[?2026l';
    expect(filterOutput(frame, 'screen')).toBe(frame);
    expect(filterOutput(frame, 'line')).not.toContain('\u001b[?25l');
    expect(filterOutput('\u001b[?1049h', 'screen')).toBe('^[[?1049h');
  });

  it('lets cursor show through in every mode (the exit-time restore comes after the REPL), never hide', () => {
    for (const mode of ['line', 'edit', 'screen'] as const) expect(filterOutput('\u001b[?25h', mode)).toBe('\u001b[?25h');
    expect(filterOutput('\u001b[?25l', 'line')).toBe('^[[?25l');
    expect(filterOutput('\u001b[?25;1h', 'line')).toBe('^[[?25;1h');
  });

  it('keeps the joiner inside an emoji sequence, not between letters', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
    expect(filterOutput(family)).toBe(family);
    expect(filterOutput('\u{1F44D}\u{1F3FD}\u200D\u{1F525}')).toBe('\u{1F44D}\u{1F3FD}\u200D\u{1F525}');
    expect(filterOutput('a\u200Db')).toBe('a<U+200D>b');
  });

  it('escapeForJson keeps the value and drops the raw characters', () => {
    const value = { t: 'a\u202Eb\u009b\u2028\u{E0041}' };
    const json = escapeForJson(JSON.stringify(value));
    expect(JSON.parse(json)).toEqual(value);
    expect(rawEscape(json)).toBeNull();
  });
});
