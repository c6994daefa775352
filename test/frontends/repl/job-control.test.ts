/** Ctrl-Z and Ctrl-L against a fake terminal: what is written, in what order (no process is stopped). */
import { describe, expect, it } from 'vitest';
import { clearScreen, suspend, type Screen, type Terminal } from '../../../src/frontends/repl/job-control';

function fakes(stops: boolean) {
  const log: string[] = [];
  let cont: (() => void) | null = null;
  const screen: Screen = {
    writeAbove: (d) => log.push(`ink:${JSON.stringify(d)}`),
    eraseFrame: () => log.push('erase'),
    frameRows: () => 3,
  };
  const term: Terminal = {
    stdin: { isTTY: true, setRawMode: (on: boolean) => (log.push(`raw:${on}`), process.stdin) },
    stdout: { write: (d: string | Uint8Array) => (log.push(`out:${JSON.stringify(d)}`), true) },
    stop: () => {
      log.push('stop');
      if (stops) cont?.(); // a real stop returns only after SIGCONT, whose handler runs first here
    },
    onContinue: (fn) => {
      cont = fn;
      return () => (cont = null);
    },
  };
  return { log, screen, term };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('suspend (Ctrl-Z)', () => {
  it('gives the terminal back cooked with the cursor shown, then on SIGCONT takes it again and redraws below the shell', async () => {
    const f = fakes(true);
    suspend(f.screen, f.term);
    await tick();
    expect(f.log).toEqual([
      'erase',
      'out:"\\u001b[?2004l\\u001b[?25h"',
      'raw:false',
      'stop',
      'raw:true',
      // Ink erases its frame's height above the cursor before drawing: blank lines, not the shell's
      'out:"\\u001b[?2004h\\u001b[?25l\\n\\n\\n"',
      'ink:""',
    ]);
  });

  it('comes back at once when the signal was dropped (no job-control shell), and only once', async () => {
    const f = fakes(false);
    suspend(f.screen, f.term);
    expect(f.log.at(-1)).toBe('stop');
    await tick();
    await tick();
    expect(f.log.filter((l) => l === 'raw:true')).toHaveLength(1);
    expect(f.log.at(-1)).toBe('ink:""');
  });
});

describe('clearScreen (Ctrl-L)', () => {
  it('clears screen and scrollback through Ink, which draws the frame again at the top', () => {
    const f = fakes(false);
    clearScreen(f.screen);
    expect(f.log).toEqual(['ink:"\\u001b[2J\\u001b[3J\\u001b[H"']);
  });
});
