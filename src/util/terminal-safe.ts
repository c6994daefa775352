/**
 * Text from a model, a tool or an MCP server must never drive the terminal: an escape sequence in
 * it could write the clipboard (OSC 52), retitle the window (OSC 0), clear the screen or move the
 * cursor. Every escape sequence is removed (ansi-regex, which knows the CSI/OSC/DCS grammar), then
 * any C0/C1 control left over — so even a sequence the grammar does not know loses its ESC.
 * Colours aish shows are added by aish's own renderer afterwards.
 */
import ansiRegex from 'ansi-regex';
import { stripControls } from './text';

const SEQUENCE = ansiRegex();

export function terminalSafe(text: string): string {
  return stripControls(text.replace(SEQUENCE, ''));
}

// ESC and the C1 introducers (CSI, OSC, DCS, SOS, PM, APC) that can start a sequence.
const INTRODUCER = /[\u001b\u009b\u009d\u0090\u0098\u009e\u009f]/g;
// A two-byte escape that also starts a control string (DCS, SOS, PM, APC, title): its payload and
// terminator may still be on the way.
const STRING_START = /^\u001b[PX^_k\]]$/;
/** Longest unfinished sequence held back between chunks; longer ones are cut (and lose their ESC). */
const MAX_HOLD = 512;

/**
 * Where the end of `text` may be an unfinished sequence, or -1: an introducer after the last
 * complete sequence, or that sequence itself when it ends the text (`ESC P` is a whole escape, and
 * also the start of a device control string that goes on in the next chunk).
 */
function unfinishedAt(text: string): number {
  let start = -1;
  let end = 0;
  let opensString = false;
  SEQUENCE.lastIndex = 0;
  for (let m = SEQUENCE.exec(text); m; m = SEQUENCE.exec(text)) {
    start = m.index;
    end = m.index + m[0].length;
    opensString = STRING_START.test(m[0]);
  }
  if (start >= 0 && (end === text.length || opensString)) return start;
  INTRODUCER.lastIndex = end;
  const m = INTRODUCER.exec(text);
  return m ? m.index : -1;
}

/**
 * For streamed text: a sequence split across two chunks is held back until it is complete, so it is
 * removed whole instead of leaving its visible tail. Whatever is held is cleaned like the rest.
 */
export class TerminalSafeStream {
  private held = '';

  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    const at = unfinishedAt(text);
    if (at >= 0 && text.length - at <= MAX_HOLD) {
      // The tail starts a sequence that is not complete yet: wait for more.
      this.held = text.slice(at);
      text = text.slice(0, at);
    }
    return terminalSafe(text);
  }

  /** The end of the stream: anything held is cleaned and let go. */
  flush(): string {
    const rest = terminalSafe(this.held);
    this.held = '';
    return rest;
  }
}
