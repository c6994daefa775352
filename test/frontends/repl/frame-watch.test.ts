/** When a start's frame is kept for the next start (frame-watch.ts keepSettledFrame). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Setup } from '../../../src/config/setup';
import type { StatusInfo } from '../../../src/core/status';
import type { FirstFrame } from '../../../src/frontends/repl/first-frame';
import { EMPTY_PROMPT_LINE } from '../../../src/frontends/repl/first-frame';
import { FrameRecorder } from '../../../src/frontends/repl/frame-handover';
import { frameSources, keepSettledFrame } from '../../../src/frontends/repl/frame-watch';
import { statusText } from '../../../src/frontends/repl/status-text';
import { truncateColumns } from '../../../src/util/width';
import { tmpDir } from '../../helpers/tmp';

const STATUS: StatusInfo = {
  preset: 'fast',
  model: 'gpt-4o-mini',
  cwd: '/w',
  memoryInjected: 2,
  inbox: 0,
  tokens: 134,
  budget: 8000,
  tokensExact: false,
  busy: false,
  norris: null,
  usage: null,
};
const FRAME = `${EMPTY_PROMPT_LINE}\n\x1b[2m${statusText(STATUS, 100, truncateColumns)}\x1b[22m\n`;
const DRAFT = FRAME.replace(EMPTY_PROMPT_LINE, '\x1b[1m\x1b[36m› \x1b[39m\x1b[22mhi\x1b[7m \x1b[27m');

function parts(predicted?: string, fromCache = true) {
  const dir = tmpDir();
  const cache = join(dir, 'cache', 'aish', 'first-frame.json');
  const first = {
    predicted,
    fromCache,
    cache: { path: cache, key: 'k1' },
    eraseSequence: '',
    erase() {},
    takeKeys: () => ({ lines: [], draft: '' }),
    abandon() {},
  } satisfies FirstFrame;
  const setup = {
    config: {},
    configPath: join(dir, 'config.ts'),
    paths: { memoryPath: join(dir, 'data', 'memory.jsonl') },
  } as unknown as Setup;
  const status = { ...STATUS };
  const settled = keepSettledFrame(
    first,
    setup,
    () => status,
    () => 100,
  );
  return { cache, setup, status, settled, recorder: new FrameRecorder() };
}

describe('keepSettledFrame', () => {
  it('keeps an idle prompt once memory is loaded and nothing runs', () => {
    const p = parts();
    p.recorder.see(FRAME);
    p.status.memoryInjected = null;
    expect(p.settled(p.recorder)).toBe(false); // memory still loading: wait
    p.status.memoryInjected = 2;
    p.status.busy = true;
    expect(p.settled(p.recorder)).toBe(false);
    p.status.busy = false;
    expect(p.settled(p.recorder)).toBe(true);
    const kept = JSON.parse(readFileSync(p.cache, 'utf8')) as { entries: Array<{ key: string; frame: string; files: unknown[][] }> };
    expect(kept.entries[0]).toMatchObject({ key: 'k1', frame: FRAME });
    expect(kept.entries[0]!.files.map((f) => f[0])).toEqual(frameSources(p.setup));
  });

  it('a frame behind the status (quit before Ink drew the loaded count) is not kept', () => {
    const p = parts();
    p.recorder.see(FRAME.replace('mem 2', 'mem …'));
    expect(p.settled(p.recorder)).toBe(false);
    expect(existsSync(p.cache)).toBe(false);
    p.recorder.see(FRAME);
    expect(p.settled(p.recorder)).toBe(true);
    expect(existsSync(p.cache)).toBe(true);
  });

  it('a draft in the editor waits for a later quiet moment; deleting it makes the frame keepable', () => {
    const p = parts();
    p.recorder.see(DRAFT);
    expect(p.settled(p.recorder)).toBe(false);
    expect(existsSync(p.cache)).toBe(false);
    p.recorder.see(FRAME);
    expect(p.settled(p.recorder)).toBe(true);
    expect(existsSync(p.cache)).toBe(true);
  });

  it('once text was printed (a turn, a warning), the start is done with, and nothing is kept', () => {
    const p = parts();
    p.recorder.see(FRAME);
    p.recorder.see('');
    p.recorder.see('warning: something\n');
    p.recorder.see(FRAME);
    expect(p.settled(p.recorder)).toBe(true);
    expect(existsSync(p.cache)).toBe(false);
  });

  it('the frame that was drawn early from the cache and matched is not written again', () => {
    const p = parts(FRAME);
    p.recorder.see(FRAME);
    expect(p.settled(p.recorder)).toBe(true);
    expect(existsSync(p.cache)).toBe(false);
  });

  it('a frame the command line predicted (not from the cache) is kept for the next start', () => {
    const p = parts(FRAME, false);
    p.recorder.see(FRAME);
    expect(p.settled(p.recorder)).toBe(true);
    expect(existsSync(p.cache)).toBe(true);
  });
});
