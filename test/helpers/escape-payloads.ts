/**
 * Hostile terminal payloads, by class, and the check that none of their raw bytes got through.
 * Classes from xterm's control-sequence list (ctlseqs), ECMA-48 C1 controls, the Trojan Source
 * paper's bidi characters (CVE-2021-42574) and Unicode's default-ignorable format characters.
 */
export const ESCAPE_PAYLOADS: Record<string, string> = {
  oscTitleBel: '\u001b]0;pwned-title\u0007',
  oscTitleSt: '\u001b]2;pwned-title\u001b\\',
  osc52Clipboard: '\u001b]52;c;cm0gLXJmIH4=\u0007',
  osc8Link: '\u001b]8;;http://127.0.0.1/evil\u001b\\click\u001b]8;;\u001b\\',
  dcs: '\u001bPq#0;2;0;0;0#1;2;100;100;0\u001b\\',
  decrqss: '\u001bP$qm\u001b\\',
  apc: '\u001b_hidden-apc\u001b\\',
  pm: '\u001b^hidden-pm\u001b\\',
  sos: '\u001bXhidden-sos\u001b\\',
  altScreen: '\u001b[?1049h',
  clearScreen: '\u001b[2J\u001b[3J\u001b[H',
  cursorHome: '\u001b[1;1H',
  deviceStatus: '\u001b[6n',
  cursorUpErase: 'ok\u001b[1A\u001b[2K\rspoofed',
  conceal: '\u001b[8mhidden text\u001b[28m',
  cursorLeft: 'abc\u001b[3Dxyz',
  cursorColumn: 'abc\u001b[1Gxyz',
  mouseOn: '\u001b[?1000h',
  reset: '\u001bc',
  c1Csi: '\u009b2J',
  c1Osc: '\u009d0;c1-title\u0007',
  c1Dcs: '\u0090q\u009c',
  bell: '\u0007',
  backspace: 'abc\u0008\u0008\u0008XYZ',
  loneCr: 'visible\rHIDDEN',
  rlo: 'txt.\u202Eexe.sh',
  lri: '\u2066isolated\u2069',
  rli: '\u2067x\u2069',
  fsi: '\u2068x\u2069',
  lre: '\u202Ax\u202C',
  rle: '\u202Bx\u202C',
  lro: '\u202Dx\u202C',
  lrm: 'a\u200Eb\u200Fc',
  alm: 'a\u061Cb',
  zwsp: 'ba\u200Bckground',
  zwnj: 'a\u200Cb',
  wordJoiner: 'a\u2060b',
  bom: 'a\uFEFFb',
  tags: 'a\u{E0041}\u{E0042}b',
};

// Raw bytes that must never reach the terminal: every C0 control except \t and \n (a CR only before
// \n), C1 controls, bidi controls and the invisible format characters above.
const RAW =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]|\r(?!\n)/u;

/** Whether SGR parameters hide text (8, conceal), stepping over extended colours like 38;5;8. */
function concealed(params: string): boolean {
  const p = params.split(';');
  for (let i = 0; i < p.length; i++) {
    if (['38', '48', '58'].includes(p[i]!)) i += p[i + 1] === '5' ? 2 : p[i + 1] === '2' ? 4 : 0;
    else if (Number(p[i]) === 8) return true;
  }
  return false;
}

/** What is wrong with `out` (terminal bytes as text), or null. ESC may only start SGR, or the cursor work `allowCursor` names. */
export function rawEscape(out: string, allowCursor = false): string | null {
  const raw = RAW.exec(out);
  if (raw)
    return `raw ${JSON.stringify(raw[0])} at ${raw.index}: ${JSON.stringify(out.slice(Math.max(0, raw.index - 20), raw.index + 20))}`;
  const esc = /\u001b/g;
  for (let m = esc.exec(out); m; m = esc.exec(out)) {
    const rest = out.slice(m.index, m.index + 40);
    const sgr = /^\u001b\[([\d;:]*)m/.exec(rest);
    if (sgr && !concealed(sgr[1]!)) continue;
    if (allowCursor && /^\u001b\[(\d*[ABCDEFGK]|[0-3]?J|H|\?(25|2004|2026)[hl]|[<>]\d*u|\?u)/.test(rest)) continue;
    return `escape ${JSON.stringify(rest.slice(0, 12))} at ${m.index}`;
  }
  return null;
}

/** Every payload in one line, with a marker to wait for after it. */
export const ALL_PAYLOADS = Object.values(ESCAPE_PAYLOADS).join(' ');
