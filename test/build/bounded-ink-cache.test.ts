/**
 * The build's patch of Ink's text measurement (scripts/bounded-ink-cache.mjs) must apply to the
 * installed Ink, measure every text as the original does, and keep at most MAX_TEXTS texts however
 * many distinct ones a session lays out.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

type Measure = (text: string) => { width: number; height: number };
interface Patcher {
  boundInkCache: (source: string) => string;
  MAX_TEXTS: number;
}

const INK_BUILD = join(ROOT, 'node_modules', 'ink', 'build');
const written: string[] = [];
afterAll(() => written.forEach((f) => rmSync(f, { force: true })));

/** The original and the patched measureText; the patched file sits beside the original so its imports resolve the same. */
async function load(): Promise<{ original: Measure; patched: Measure; measured: () => number; max: number; changed: boolean }> {
  const { boundInkCache, MAX_TEXTS } = (await import(pathToFileURL(join(ROOT, 'scripts', 'bounded-ink-cache.mjs')).href)) as Patcher;
  const source = readFileSync(join(INK_BUILD, 'measure-text.js'), 'utf8');
  const patchedSource = boundInkCache(source);
  const file = join(INK_BUILD, `.bounded-ink-cache-test-${process.pid}.js`);
  writeFileSync(file, patchedSource);
  written.push(file);
  const original = ((await import(pathToFileURL(join(INK_BUILD, 'measure-text.js')).href)) as { default: Measure }).default;
  const mod = (await import(pathToFileURL(file).href)) as { default: Measure; __aishMeasuredTexts?: () => number };
  return {
    original,
    patched: mod.default,
    measured: mod.__aishMeasuredTexts ?? (() => Infinity),
    max: MAX_TEXTS,
    changed: patchedSource !== source,
  };
}

const NAMED = [
  '',
  'one line',
  'two\nlines',
  'fast (gpt-4o-mini) │ ~/src/aish │ mem 12 │ ctx ~1.2k/8.0k',
  '日本語\n\x1b[31mred 😀\x1b[39m',
  '› …',
];

it('applies to the installed Ink and measures as the original does', async () => {
  const { original, patched, changed } = await load();
  expect(changed).toBe(true);
  for (const t of NAMED) expect(patched(t), JSON.stringify(t)).toEqual(original(t));
});

it('keeps at most MAX_TEXTS texts, and measures the same after starting over', async () => {
  const { original, patched, measured, max } = await load();
  const texts = Array.from({ length: 3 * max + 7 }, (_, i) => `answer ${i}\n${'word '.repeat(i % 40)}${i % 3 ? '日本' : ''}`);
  for (const t of texts) {
    expect(patched(t)).toEqual(original(t));
    expect(measured()).toBeLessThanOrEqual(max);
  }
  // The first texts were dropped when the cache started over; measuring them again is still right.
  for (const t of texts.slice(0, 20)) expect(patched(t)).toEqual(original(t));
});
