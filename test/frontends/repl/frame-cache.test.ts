/**
 * The settled-frame cache: written by the bundle (frame-cache.ts), read by the launcher before the
 * bundle loads (bin/frame-cache.cjs). A frame is drawn early only for the start it was kept for.
 */
import { appendFileSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveFrame } from '../../../src/frontends/repl/frame-cache';
import { EMPTY_PROMPT_LINE } from '../../../src/frontends/repl/first-frame';
import { ROOT } from '../../helpers/paths';
import { tmpDir } from '../../helpers/tmp';

interface Found {
  path: string;
  key: string;
  frame: string | undefined;
}
const { lookup } = createRequire(import.meta.url)(join(ROOT, 'bin', 'frame-cache.cjs')) as {
  lookup(bundle: string, env: Record<string, string | undefined>, out: { columns: number; rows: number }): Found | undefined;
};

const FRAME = `${EMPTY_PROMPT_LINE}\n\x1b[2mfast (gpt-4o-mini) │ /w │ mem 2 │ ctx ~134/8.0k\x1b[22m\n`;
const TTY = { columns: 100, rows: 30 };

/** A home with a bundle file, a memory file and an absent config; the env the launcher would see. */
function setup() {
  const home = tmpDir();
  const bundle = join(home, 'cli.js');
  writeFileSync(bundle, '// bundle');
  const memory = join(home, 'memory.jsonl');
  writeFileSync(memory, '{"id":1,"ts":"2025-01-01T00:00:00Z","kind":"fact","content":"a"}\n');
  const env: Record<string, string | undefined> = {
    HOME: home,
    XDG_CACHE_HOME: join(home, 'cache'),
    OPENAI_API_KEY: 'sk-one',
    TERM: 'xterm-256color',
  };
  const files = [join(home, 'config', 'aish', 'config.ts'), memory, join(home, 'inbox.jsonl')];
  return { home, bundle, memory, env, files };
}

function keep(s: ReturnType<typeof setup>, frame = FRAME) {
  const slot = lookup(s.bundle, s.env, TTY)!;
  expect(slot.frame).toBeUndefined();
  expect(saveFrame(slot, frame, s.files)).toBe(true);
  return slot;
}

describe('frame cache', () => {
  it('a kept frame is found by the next start, from a private file', () => {
    const s = setup();
    const slot = keep(s);
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBe(FRAME);
    expect(statSync(slot.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(s.home, 'cache', 'aish')).mode & 0o777).toBe(0o700);
    expect(readFileSync(slot.path, 'utf8')).not.toContain('sk-one');
  });

  it('a changed memory file (a hand edit, another aish) means no early frame', () => {
    const s = setup();
    keep(s);
    appendFileSync(s.memory, '{"id":2,"ts":"2025-01-02T00:00:00Z","kind":"fact","content":"b"}\n');
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
  });

  it('the same size but another mtime, or a file that now exists, also means no early frame', () => {
    const s = setup();
    keep(s);
    utimesSync(s.memory, new Date(), new Date(Date.now() - 60_000));
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
    const t = setup();
    keep(t);
    mkdirSync(join(t.home, 'config', 'aish'), { recursive: true });
    writeFileSync(t.files[0]!, 'export default {}');
    expect(lookup(t.bundle, t.env, TTY)?.frame).toBeUndefined();
  });

  it('another terminal size, directory-relevant environment or bundle is another key', () => {
    const s = setup();
    keep(s);
    expect(lookup(s.bundle, s.env, { columns: 80, rows: 30 })?.frame).toBeUndefined();
    expect(lookup(s.bundle, { ...s.env, AISH_DATA_DIR: '/elsewhere' }, TTY)?.frame).toBeUndefined();
    expect(lookup(s.bundle, { ...s.env, NO_COLOR: '1' }, TTY)?.frame).toBeUndefined();
    expect(lookup(s.bundle, { ...s.env, OPENAI_API_KEY: undefined }, TTY)?.frame).toBeUndefined();
    // A secret counts only as set or not: another key value is the same start.
    expect(lookup(s.bundle, { ...s.env, OPENAI_API_KEY: 'sk-two' }, TTY)?.frame).toBe(FRAME);
    // Unrelated variables do not matter.
    expect(lookup(s.bundle, { ...s.env, SHLVL: '3' }, TTY)?.frame).toBe(FRAME);
    writeFileSync(s.bundle, '// rebuilt bundle');
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
  });

  it('a cache edited to send other escape sequences, or a broken file, is not drawn', () => {
    const s = setup();
    const slot = keep(s);
    const data = JSON.parse(readFileSync(slot.path, 'utf8')) as { entries: Array<{ frame: string }> };
    data.entries[0]!.frame = `\x1b]52;c;ZXZpbA==\x07${FRAME}`;
    writeFileSync(slot.path, JSON.stringify(data));
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
    data.entries[0]!.frame = `\x1b[2J${FRAME}`;
    writeFileSync(slot.path, JSON.stringify(data));
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
    writeFileSync(slot.path, '{"v":1,"entries":[');
    expect(lookup(s.bundle, s.env, TTY)).toMatchObject({ key: slot.key, frame: undefined });
    // Saving over a broken file starts it afresh.
    expect(saveFrame(slot, FRAME, s.files)).toBe(true);
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBe(FRAME);
  });

  it('a relative XDG_CACHE_HOME is ignored: the cache never lands in the directory aish started in', () => {
    const s = setup();
    expect(lookup(s.bundle, { ...s.env, XDG_CACHE_HOME: 'cache' }, TTY)?.path).toBe(join(s.home, '.cache', 'aish', 'first-frame.json'));
  });

  it('a frame as tall as the terminal is not drawn early', () => {
    const s = setup();
    keep(s, `${EMPTY_PROMPT_LINE}\n${'line\n'.repeat(29)}`);
    expect(lookup(s.bundle, s.env, TTY)?.frame).toBeUndefined();
  });

  it('keeps a few entries, newest first, one per key', () => {
    const s = setup();
    for (let cols = 40; cols < 52; cols++) {
      const slot = lookup(s.bundle, s.env, { columns: cols, rows: 30 })!;
      saveFrame(slot, FRAME.replace('mem 2', `mem ${cols}`), s.files);
      saveFrame(slot, FRAME.replace('mem 2', `mem ${cols}`), s.files);
    }
    const slot = lookup(s.bundle, s.env, TTY)!;
    const entries = (JSON.parse(readFileSync(slot.path, 'utf8')) as { entries: Array<{ frame: string }> }).entries;
    expect(entries.map((e) => /mem (\d+)/.exec(e.frame)![1])).toEqual([
      '51',
      '50',
      '49',
      '48',
      '47',
      '46',
      '45',
      '44',
      '43',
      '42',
      '41',
      '40',
    ]);
    expect(lookup(s.bundle, s.env, { columns: 51, rows: 30 })?.frame).toContain('mem 51');
  });
});
