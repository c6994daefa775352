/** Model and tool text cannot drive the terminal: no escape sequence or control character survives, whole or streamed. */
import { describe, expect, it } from 'vitest';
import { terminalSafe, TerminalSafeStream } from '../../src/util/terminal-safe';

const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const ATTACKS = [
  'copy \u001b]52;c;cm0gLXJmIH4vKg==\u0007 done', // OSC 52: write the clipboard
  'title \u001b]0;pwned\u001b\\ done', // OSC 0 with ST
  'clear \u001b[2J\u001b[3J\u001b[H done', // clear screen and scrollback, home
  'c1 \u009b2J \u009d0;x\u009c done', // C1 CSI and OSC
  'link \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 done', // hyperlink
  'dcs \u001bP1$qm\u001b\\ done', // device control string
  'bell \u0007\u0007 and a lone ESC \u001b here',
  'cr overwrite\rgotcha',
];

describe('terminalSafe', () => {
  it('leaves no control character or escape sequence, and keeps the words', () => {
    for (const a of ATTACKS) {
      const out = terminalSafe(a);
      expect(out, JSON.stringify(a)).not.toMatch(CONTROLS);
      expect(out).toMatch(/done|bell|gotcha/);
    }
    expect(terminalSafe('plain\ttext\nnext line')).toBe('plain\ttext\nnext line');
    expect(terminalSafe('\u001b[31mred\u001b[0m')).toBe('red');
  });
});

describe('TerminalSafeStream', () => {
  it('removes a sequence split at any point across chunks, whole', () => {
    for (const a of ATTACKS) {
      const whole = terminalSafe(a);
      for (let cut = 0; cut <= a.length; cut++) {
        const s = new TerminalSafeStream();
        const out = s.push(a.slice(0, cut)) + s.push(a.slice(cut)) + s.flush();
        expect(out, `${JSON.stringify(a)} cut at ${cut}`).toBe(whole);
      }
    }
  });

  it('holds back at most a bounded tail, and an endless unterminated sequence still loses its ESC', () => {
    const s = new TerminalSafeStream();
    let out = s.push('start \u001b]52;c;');
    for (let i = 0; i < 100; i++) out += s.push('QUFBQUFB'.repeat(10));
    out += s.flush();
    expect(out).not.toMatch(CONTROLS);
    expect(out.startsWith('start ')).toBe(true);
  });
});
