/** The hand-over from the frame drawn before Ink mounts to Ink's own (frame-handover.ts). */
import { describe, expect, it } from 'vitest';
import { EMPTY_PROMPT_LINE } from '../../../src/frontends/repl/first-frame';
import { FrameHandover, FrameRecorder, frameOf } from '../../../src/frontends/repl/frame-handover';

const STATUS = '\x1b[2mfast (gpt-4o-mini) │ /w │ mem 3 │ ctx ~134/8.0k\x1b[22m';
const FRAME = `${EMPTY_PROMPT_LINE}\n${STATUS}\n`;
const ERASE = '\x1b[2A\r\x1b[J';
const [HIDE, BSU, ESU] = ['\x1b[?25l', '\x1b[?2026h', '\x1b[?2026l'];
/** ansi-escapes' eraseLines(n), as Ink's log-update writes it before each frame. */
const eraseLines = (n: number) =>
  Array.from({ length: n }, (_, i) => `\x1b[2K${i < n - 1 ? '\x1b[1A' : ''}`).join('') + (n ? '\x1b[G' : '');

describe('frameOf', () => {
  it('takes the frame out of a log-update write, with or without the erase in front', () => {
    expect(frameOf(FRAME)).toBe(FRAME);
    expect(frameOf(eraseLines(3) + FRAME)).toBe(FRAME);
  });

  it('is undefined for anything that is not a plain frame', () => {
    expect(frameOf('just text')).toBeUndefined(); // no newline at the end: not log-update's
    expect(frameOf(`\x1b[2J${FRAME}`)).toBeUndefined(); // clears the screen
    expect(frameOf(`${EMPTY_PROMPT_LINE}\x1b[5;1H\n`)).toBeUndefined(); // moves the cursor
    expect(frameOf('a\x07b\n')).toBeUndefined(); // a control character
    expect(frameOf('a\x9b2Jb\n')).toBeUndefined(); // an 8-bit CSI
  });
});

describe('FrameHandover', () => {
  it("writes nothing when Ink's first frame is the one on screen, then lets everything through", () => {
    const h = new FrameHandover(FRAME, ERASE);
    expect([HIDE, BSU, FRAME, ESU].map((c) => h.pass(c))).toEqual(['', '', '', '']);
    expect(h.done).toBe(true);
    const next = `${BSU}`;
    expect(h.pass(next)).toBe(next);
    expect(h.pass(eraseLines(3) + FRAME.replace('mem 3', 'mem 4'))).toBe(eraseLines(3) + FRAME.replace('mem 3', 'mem 4'));
  });

  it('a different first frame erases the early one first, and keeps the held writes in order', () => {
    const h = new FrameHandover(FRAME, ERASE);
    const other = FRAME.replace('mem 3', 'mem …');
    expect(h.pass(HIDE)).toBe('');
    expect(h.pass(BSU)).toBe('');
    expect(h.pass(other)).toBe(ERASE + HIDE + BSU + other);
    expect(h.done).toBe(true);
    expect(h.pass(ESU)).toBe(ESU);
  });

  it('text printed before the first frame (a warning above the prompt) also erases it first', () => {
    const h = new FrameHandover(FRAME, ERASE);
    expect(h.pass('warning: something\n')).toBe(`${ERASE}warning: something\n`);
    expect(h.pass(FRAME)).toBe(FRAME);
  });

  it('without a predicted frame, the first write erases the early prompt and the rest pass', () => {
    const h = new FrameHandover(undefined, ERASE);
    expect(h.done).toBe(false);
    expect(h.pass(HIDE)).toBe(ERASE + HIDE);
    expect(h.pass(FRAME)).toBe(FRAME);
  });

  it('after a matched frame, a write other than the end mark still goes through', () => {
    const h = new FrameHandover(FRAME, ERASE);
    h.pass(FRAME);
    expect(h.pass('x')).toBe('x');
  });
});

describe('FrameRecorder', () => {
  it('settles on the latest frame when it is an idle prompt and nothing else was written', () => {
    const r = new FrameRecorder();
    for (const c of [HIDE, BSU, FRAME.replace('mem 3', 'mem …'), ESU, BSU, eraseLines(3) + FRAME, ESU]) r.see(c);
    expect(r.settled()).toBe(FRAME);
  });

  it('a draft in the editor is not an idle prompt', () => {
    const r = new FrameRecorder();
    r.see(FRAME.replace(EMPTY_PROMPT_LINE, '\x1b[1m\x1b[36m› \x1b[39m\x1b[22mhel\x1b[7m \x1b[27m'));
    expect(r.settled()).toBeUndefined();
  });

  it('once text was printed above the frames, nothing is settled (the next start would not show it)', () => {
    const r = new FrameRecorder();
    r.see(FRAME);
    r.see(`${eraseLines(3)}welcome to aish`);
    r.see(FRAME);
    expect(r.settled()).toBeUndefined();
    // Ink's usual way: log.clear() (an empty write before anything was drawn), the text, the frame.
    const first = new FrameRecorder();
    for (const c of [BSU, '', 'welcome to aish\n', FRAME, ESU]) first.see(c);
    expect(first.settled()).toBeUndefined();
  });
});
