/**
 * The build's patches of how Ink turns a frame into text (scripts/lean-ink-output.mjs) must apply
 * to the installed Ink and ansi-tokenize, and give the same text as the originals: styled lines
 * (colours, bold/dim, resets, wide characters) and whole frames (clipped, overlapping, blank).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

interface Patcher {
  leanInkOutput: (s: string) => string;
  leanStyledChars: (s: string) => string;
}
type Chars = unknown[];
interface Tokenizer {
  tokenize: (s: string) => unknown[];
  styledCharsFromTokens: (t: unknown[]) => Chars;
  styledCharsToString: (c: Chars) => string;
}
interface OutputLike {
  write(x: number, y: number, text: string, o: { transformers: Array<(s: string, i: number) => string> }): void;
  clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (o: { width: number; height: number }) => OutputLike;

const TOKENIZE = join(ROOT, 'node_modules', '@alcalzone', 'ansi-tokenize', 'build');
const INK = join(ROOT, 'node_modules', 'ink', 'build');
const written: string[] = [];
afterAll(() => written.forEach((f) => rmSync(f, { force: true })));

const url = (f: string) => pathToFileURL(f).href;

/** Writes the patched file beside the original (so its imports resolve the same) and imports both. */
async function both<T>(dir: string, file: string, patch: (s: string) => string): Promise<{ original: T; patched: T; changed: boolean }> {
  const source = readFileSync(join(dir, file), 'utf8');
  const patchedSource = patch(source);
  const copy = join(dir, `.lean-ink-output-test-${process.pid}-${file}`);
  writeFileSync(copy, patchedSource);
  written.push(copy);
  return {
    original: (await import(url(join(dir, file)))) as T,
    patched: (await import(url(copy))) as T,
    changed: patchedSource !== source,
  };
}

const patcher = async () => (await import(url(join(ROOT, 'scripts', 'lean-ink-output.mjs')))) as Patcher;

const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const OFF = '\x1b[39m';
const BOLD = '\x1b[1m';
const DIM = '\x1b[2m';
const NORMAL = '\x1b[22m';
const LINES = [
  '',
  'plain text',
  `${RED}red${OFF} then plain`,
  `${RED}red ${GREEN}green${OFF} plain`,
  `${BOLD}bold ${DIM}and dim${NORMAL} normal`,
  `${BOLD}${RED}bold red${'\x1b[0m'} reset`,
  `\x1b[38;5;208morange\x1b[39m \x1b[48;2;10;20;30mbg\x1b[49m`,
  `日本語 ${RED}😀 wide${OFF}`,
  `${RED}unclosed red to the end`,
  `${DIM}${DIM}twice dim${NORMAL}`,
];

it('applies to the installed ansi-tokenize and styles every line as the original does', async () => {
  const { leanStyledChars } = await patcher();
  const { original, patched, changed } = await both<Tokenizer>(TOKENIZE, 'styledChars.js', leanStyledChars);
  expect(changed).toBe(true);
  const { tokenize } = (await import(url(join(TOKENIZE, 'index.js')))) as Tokenizer;
  for (const line of LINES) {
    const chars = original.styledCharsFromTokens(tokenize(line));
    expect(patched.styledCharsToString(chars), JSON.stringify(line)).toBe(original.styledCharsToString(chars));
  }
});

it('applies to the installed Ink and draws every frame as the original does', async () => {
  const { leanInkOutput } = await patcher();
  const { original, patched, changed } = await both<{ default: OutputClass }>(INK, 'output.js', leanInkOutput);
  expect(changed).toBe(true);
  const frame = (Output: OutputClass, width: number, height: number, draw: (o: OutputLike) => void) => {
    const o = new Output({ width, height });
    draw(o);
    return o.get();
  };
  const none = { transformers: [] };
  const draws: Array<[number, number, (o: OutputLike) => void]> = [
    [10, 3, () => {}],
    [40, 5, (o) => LINES.forEach((l, i) => o.write(i % 3, i % 5, l, none))],
    [20, 4, (o) => o.write(2, 1, `${RED}two\nlines${OFF}\n${BOLD}three${NORMAL}`, none)],
    [
      30,
      4,
      (o) => {
        o.clip({ x1: 3, x2: 12, y1: 1, y2: 3 });
        o.write(0, 0, `${GREEN}clipped ${RED}text that runs on${OFF}\nsecond 日本語 line\nthird`, none);
        o.unclip();
        o.write(15, 2, `${DIM}after the clip${NORMAL}`, { transformers: [(s, i) => `${s}${i}`] });
      },
    ],
  ];
  for (const [w, h, draw] of draws) expect(frame(patched.default, w, h, draw)).toEqual(frame(original.default, w, h, draw));
});
