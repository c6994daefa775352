// The REPL's prompt line, drawn by the launcher before the bundle loads (~20 ms sooner than the
// bundle can), with keys echoed on it from then on. When the last start left its settled frame in
// the cache (frame-cache.cjs), that whole frame is drawn instead: prompt and status line, `mem N`
// included. The bundle's first frame (src/frontends/repl/first-frame.ts) takes the typed text over,
// adds the status line below when it is not there yet, and hands it all to Ink.
'use strict';

const PROMPT_HEAD = '\x1b[1m\x1b[36m› \x1b[39m\x1b[22m';
const CURSOR = '\x1b[7m \x1b[27m';
const HIDE_CURSOR = '\x1b[?25l';

/** `cache`: what frame-cache.cjs found for this start (its `frame` is drawn when set), or undefined. */
exports.start = function start(cache) {
  const input = process.stdin;
  const out = process.stdout;
  input.setRawMode(true);
  // The cached frame's first line is the empty prompt (the bundle caches no other): keys echo there.
  const frame = cache && cache.frame && cache.frame.startsWith(`${PROMPT_HEAD}${CURSOR}\n`) ? cache.frame : undefined;
  const lines = frame ? frame.split('\n').length - 1 : 1; // how far below the prompt line the cursor is
  out.write(frame ? `\x1b[?2004h${HIDE_CURSOR}${frame}` : `\x1b[?2004h${PROMPT_HEAD}${CURSOR}\r\n`);
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
    if (plain && draft.length + 3 <= (out.columns || 80))
      out.write(`\x1b[${lines}A\r${PROMPT_HEAD}${draft}${CURSOR}\x1b[K\r\x1b[${lines}B`);
  };
  input.on('readable', onReadable);
  const stop = () => {
    live = false;
    input.removeListener('readable', onReadable);
  };
  return {
    /** The cached frame on screen (prompt line first, cursor below its last line), if one was drawn. */
    frame,
    /** Where the bundle keeps this start's settled frame for the next one. */
    cache: cache ? { path: cache.path, key: cache.key } : undefined,
    /** Stop reading; what was typed so far, as typed. The prompt line stays for the first frame. */
    take() {
      if (live) stop();
      return typed;
    },
    /** Remove what was drawn (an error before the first frame). */
    abandon() {
      if (!live) return;
      stop();
      input.pause();
      out.write(`\x1b[${lines}A\r\x1b[J\x1b[?2004l${frame ? '\x1b[?25h' : ''}`);
      input.setRawMode(false);
    },
  };
};
