/**
 * The build's patch of string-width (scripts/lazy-emoji.mjs) must not change a single width: the
 * patched copies of both installed versions are compared with the originals on named cases and on
 * every code point of the ranges where emoji and wide characters live.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

type Width = (s: string) => number;
interface Patcher {
  lazyEmoji: (source: string) => string;
}

const COPIES = [join(ROOT, 'node_modules', 'string-width'), join(ROOT, 'node_modules', 'wrap-ansi', 'node_modules', 'string-width')];
const written: string[] = [];
afterAll(() => written.forEach((f) => rmSync(f, { force: true })));

/** The copy's original and patched stringWidth; the patched file sits beside the original so its imports resolve the same. */
async function load(dir: string): Promise<{ original: Width; patched: Width; changed: boolean }> {
  const { lazyEmoji } = (await import(pathToFileURL(join(ROOT, 'scripts', 'lazy-emoji.mjs')).href)) as Patcher;
  const source = readFileSync(join(dir, 'index.js'), 'utf8');
  const patchedSource = lazyEmoji(source);
  const file = join(dir, `.lazy-emoji-test-${process.pid}.js`);
  writeFileSync(file, patchedSource);
  written.push(file);
  const original = ((await import(pathToFileURL(join(dir, 'index.js')).href)) as { default: Width }).default;
  const patched = ((await import(pathToFileURL(file).href)) as { default: Width }).default;
  return { original, patched, changed: patchedSource !== source };
}

const NAMED = [
  'plain ascii 0123456789 #*',
  'fast (gpt-4o-mini) │ ~/src/aish │ mem 12 │ ctx ~1.2k/8.0k',
  '› …',
  '1️⃣ #️⃣ *️⃣',
  '1⃣', // a keycap without the variation selector: not RGI
  '© ® ™ ©️ ®️',
  '🇫🇷🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  '👩‍💻 👨‍👩‍👧‍👦 👍🏽 🫱🏼‍🫲🏿',
  '☺ ☺️ ↔ ↔️ ⌚ ⏰ ✔ ✔️',
  '日本語 한국어 ｈａｌｆ ｶﾀｶﾅ',
  'é e\u0301 a\u200bb \u00ad',
  '\x1b[31mred 😀\x1b[39m',
];

function codePoints(from: number, to: number): string[] {
  const out: string[] = [];
  for (let cp = from; cp <= to; cp++) if (cp < 0xd800 || cp > 0xdfff) out.push(String.fromCodePoint(cp));
  return out;
}
const RANGES = [...codePoints(0x20, 0x33ff), ...codePoints(0xfe00, 0xffff), ...codePoints(0x1f000, 0x1faff)];

describe('string-width, patched for a lazy emoji test', () => {
  for (const dir of COPIES) {
    it(`${dir.slice(ROOT.length)}: patched, and every width the same`, async () => {
      const { original, patched, changed } = await load(dir);
      expect(changed).toBe(true); // a new version the patch does not know would be built unpatched
      const differ = [...NAMED, ...RANGES, ...RANGES.map((c) => `${c}\ufe0f`), ...RANGES.map((c) => `x${c}\u20e3`)].filter(
        (s) => patched(s) !== original(s),
      );
      expect(differ).toEqual([]);
    });
  }
});
