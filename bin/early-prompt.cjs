// The REPL's prompt line, drawn by the launcher before the bundle loads (~20 ms sooner than the
// bundle can), with keys echoed on it from then on. The bundle's first frame (src/frontends/repl/
// first-frame.ts) takes the typed text over, adds the status line below, and hands it all to Ink.
'use strict';

const PROMPT_HEAD = '\x1b[1m\x1b[36m› \x1b[39m\x1b[22m';
const CURSOR = '\x1b[7m \x1b[27m';

exports.start = function start() {
  const input = process.stdin;
  const out = process.stdout;
  input.setRawMode(true);
  out.write(`\x1b[?2004h${PROMPT_HEAD}${CURSOR}\r\n`);
  let typed = '';
  let draft = '';
  let plain = true; // only printable keys and Backspace so far: the echo is exact
  let live = true;
  const onReadable = () => {
    let chunk;
    while ((chunk = input.read()) !== null) {
      const text = chunk.toString('utf8'); // a character split over two reads is rare this early; first-frame.ts decodes again
      typed += text;
      for (const ch of text) {
        if (!plain) break;
        if (ch === '\x7f' || ch === '\b') draft = Array.from(draft).slice(0, -1).join('');
        else if (ch >= ' ' && ch !== '\x7f' && ch.codePointAt(0) < 0x1100 && !(ch >= '\x80' && ch < '\xa0')) draft += ch;
        else plain = false; // anything else: the bundle's first frame shows it right
      }
    }
    if (plain && draft.length + 3 <= (out.columns || 80)) out.write(`\x1b[1A\r${PROMPT_HEAD}${draft}${CURSOR}\x1b[K\r\x1b[1B`);
  };
  input.on('readable', onReadable);
  const stop = () => {
    live = false;
    input.removeListener('readable', onReadable);
  };
  return {
    /** Stop reading; what was typed so far, as typed. The prompt line stays for the first frame. */
    take() {
      if (live) stop();
      return typed;
    },
    /** Remove the prompt line (an error before the first frame). */
    abandon() {
      if (!live) return;
      stop();
      input.pause();
      out.write('\x1b[1A\r\x1b[J\x1b[?2004l');
      input.setRawMode(false);
    },
  };
};
