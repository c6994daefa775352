// Syntax highlighting for terminal output: highlight.js (core + a fixed language set, so the
// bundle stays small) produces HTML, which we convert into styled runs and then ANSI SGR codes.
// Also home of the tiny style model shared with markdown.ts (kept here so markdown.ts stays short).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { CONTROL_CHARS, hasControlChars, stripControls } from '../../util/text';
import { columns, type Span } from '../../util/width';

// ---- Style model -------------------------------------------------------------------------
// A style is a number: low byte = attribute bits, bits 8+ = SGR foreground code (0 = default).
// Numbers make merging and "did the style change?" checks cheap during serialization.
export const BOLD = 1;
export const DIM = 2;
export const ITALIC = 4;
export const UNDERLINE = 8;
export const STRIKE = 16;
export const fg = (code: number): number => code << 8;

/** Inner style wins for colour; attributes accumulate. */
export function mergeStyle(outer: number, inner: number): number {
  const attrs = (outer | inner) & 0xff;
  return attrs | (inner >> 8 ? inner & ~0xff : outer & ~0xff);
}

export type Run = Span;

const sgrCache = new Map<number, string>();
function sgr(style: number): string {
  let s = sgrCache.get(style);
  if (s === undefined) {
    const parts: number[] = [];
    if (style & BOLD) parts.push(1);
    if (style & DIM) parts.push(2);
    if (style & ITALIC) parts.push(3);
    if (style & UNDERLINE) parts.push(4);
    if (style & STRIKE) parts.push(9);
    if (style >> 8) parts.push(style >> 8);
    s = `\x1b[${parts.join(';')}m`;
    sgrCache.set(style, s);
  }
  return s;
}

/** Serialize one line. Every line that opens a style ends with a full reset, so Ink can lay
 *  lines out independently without colours bleeding into the next line or the border. */
export function serializeLine(runs: readonly Run[], color: boolean): string {
  let out = '';
  let cur = 0;
  for (const r of runs) {
    // Last line of defence against control characters (marked decodes `&#27;` itself).
    const text = hasControlChars(r.text) ? r.text.replace(CONTROL_CHARS, (ch) => (ch === '\t' ? ' ' : '')) : r.text;
    if (text === '') continue;
    if (color && r.style !== cur) {
      if (cur !== 0) out += '\x1b[0m';
      if (r.style !== 0) out += sgr(r.style);
      cur = r.style;
    }
    out += text;
  }
  return cur !== 0 ? out + '\x1b[0m' : out;
}

// ---- highlight.js ------------------------------------------------------------------------
const LANGUAGES = {
  javascript,
  typescript,
  python,
  bash,
  shell,
  json,
  yaml,
  go,
  rust,
  diff,
  sql,
  css,
  xml,
  markdown,
  java,
  c,
  cpp,
  dockerfile,
  ini,
};
// Registration runs each language's definition function; defer it to the first highlight so
// the cold import of this module stays cheap.
let registered = false;
function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const [name, fn] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, fn);
  hljs.registerAliases(['sh', 'zsh', 'shell-script'], { languageName: 'bash' });
  hljs.registerAliases(['html', 'svg', 'vue'], { languageName: 'xml' });
  hljs.registerAliases(['yml'], { languageName: 'yaml' });
}

// Explicit "no highlighting please" fences.
const PLAIN_LANGS = new Set(['text', 'txt', 'plain', 'plaintext', 'none', 'output', 'log', 'nohighlight']);
/** Auto-detection is O(languages × size); only worth it for small snippets. */
const AUTO_MAX = 2048;

const CLASS_STYLES: Record<string, number> = {
  keyword: fg(35),
  string: fg(32),
  number: fg(36),
  literal: fg(36),
  comment: fg(90),
  title: fg(34),
  function: fg(34),
  built_in: fg(33),
  type: fg(33),
  attr: fg(36),
  attribute: fg(36),
  property: fg(36),
  meta: DIM,
  addition: fg(32),
  deletion: fg(31),
};

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', '#x27': "'", '#39': "'" };
const decodeHtml = (s: string): string =>
  s.indexOf('&') < 0 ? s : s.replace(/&(lt|gt|amp|quot|#x27|#39);/g, (_m, e: string) => ENTITIES[e] ?? _m);

/** Convert highlight.js HTML (nested `<span class="hljs-…">`) into lines of styled runs. */
function hljsHtmlToLines(html: string): Run[][] {
  const lines: Run[][] = [[]];
  const stack: number[] = [0];
  const re = /<span class="([^"]*)">|<\/span>|[^<]+|</g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const tok = m[0];
    const top = stack[stack.length - 1] ?? 0;
    if (m[1] !== undefined) {
      // "hljs-title function_" → first hljs-* class decides; unknown classes inherit.
      const cls = /(?:^|\s)hljs-([\w-]+)/.exec(m[1])?.[1];
      const own = cls === undefined ? undefined : CLASS_STYLES[cls];
      stack.push(own === undefined ? top : mergeStyle(top, own));
    } else if (tok === '</span>') {
      if (stack.length > 1) stack.pop();
    } else {
      const parts = decodeHtml(tok).split('\n');
      parts.forEach((p, i) => {
        if (i > 0) lines.push([]);
        if (p) lines[lines.length - 1]!.push({ text: p, style: top });
      });
    }
  }
  return lines;
}

/** Expand tabs (stops of 4 display columns) — terminals and Ink disagree on tab width. */
export function expandTabs(line: string): string {
  if (line.indexOf('\t') < 0) return line;
  const parts = line.split('\t');
  let out = parts[0] ?? '';
  let col = columns(out);
  for (let i = 1; i < parts.length; i++) {
    const pad = 4 - (col % 4);
    const part = parts[i] ?? '';
    out += ' '.repeat(pad) + part;
    col += pad + columns(part);
  }
  return out;
}

// highlightAuto over all languages costs ~80 ms the first time (it compiles every grammar)
// and ~20 ms per KB after that. Cheap regex hints narrow the candidates first; a snippet that
// matches none (typically program output) stays plain, which is what it should look like anyway.
const HINTS: Array<[string, RegExp]> = [
  ['json', /^\s*[[{]\s*["[{\d\]}]/],
  ['diff', /^(?:diff |--- |\+\+\+ |@@ )/m],
  ['xml', /^\s*<[!?a-zA-Z]/],
  ['dockerfile', /^FROM\s+\S/m],
  ['sql', /\b(?:SELECT\s.+\sFROM|INSERT INTO|CREATE TABLE|DELETE FROM|UPDATE \w+ SET)\b/i],
  [
    'bash',
    /^\s*(?:\$ |#!|sudo |npm |npx |pnpm |yarn |git |cd |export |echo |curl |pip3? |brew |apt(?:-get)? |docker |kubectl |ls |mkdir |cat |rm |cp |mv |chmod )/m,
  ],
  ['python', /^\s*(?:def \w+\(|class \w+.*:\s*$|import \w|from [\w.]+ import|print\(|if __name__)/m],
  ['go', /^\s*(?:package \w+|func |import \()/m],
  ['rust', /\b(?:fn \w+|let mut |impl\b|use \w+::|pub fn|println!)/],
  ['typescript', /\b(?:interface \w+|type \w+ =|: (?:string|number|boolean)\b)/],
  ['javascript', /\b(?:const |let |function\b|=> |console\.log|require\()|^\s*import .* from ['"]/m],
  ['java', /\b(?:public (?:static |class |void )|System\.out)/],
  ['c', /^\s*#include\s*[<"]|\bprintf\(/m],
  ['cpp', /\bstd::|\bcout\b|\btemplate\s*</],
  ['css', /^\s*[.#]?[\w-]+(?:\s*[\w.#:-]+)*\s*\{[^}]*:[^}]*;/m],
  ['yaml', /^[\w-]+:(?:\s|$)/m],
  ['ini', /^\s*\[[\w. -]+\]\s*$/m],
];
function guessLanguages(code: string): string[] {
  return HINTS.filter(([, re]) => re.test(code)).map(([name]) => name);
}

/** Highlight code into lines of runs. Never throws: any failure yields unstyled lines.
 *  Unknown/missing `lang` is auto-detected when short and within `budget` (bytes, decremented). */
export function highlightLines(code: string, lang: string | undefined, budget = { left: Infinity }): Run[][] {
  const text = code.split('\n').map(expandTabs).join('\n');
  const plain = (): Run[][] => text.split('\n').map((l) => (l ? [{ text: l, style: 0 }] : []));
  const name = (lang ?? '').trim().toLowerCase();
  if (PLAIN_LANGS.has(name)) return plain();
  try {
    ensureRegistered();
    if (name && hljs.getLanguage(name)) {
      return hljsHtmlToLines(hljs.highlight(text, { language: name, ignoreIllegals: true }).value);
    }
    if (text.length < AUTO_MAX && text.length <= budget.left) {
      budget.left -= text.length;
      const candidates = guessLanguages(text);
      if (candidates.length === 1) {
        return hljsHtmlToLines(hljs.highlight(text, { language: candidates[0]!, ignoreIllegals: true }).value);
      }
      if (candidates.length > 1) return hljsHtmlToLines(hljs.highlightAuto(text, candidates).value);
    }
  } catch {
    // fall through to plain
  }
  return plain();
}

/** Public helper: highlighted code as ANSI text (no indentation). `color:false` → code unchanged. */
export function highlightCode(code: string, lang: string | undefined, color: boolean): string {
  const clean = stripControls(code);
  if (!color) return clean;
  return highlightLines(clean, lang)
    .map((l) => serializeLine(l, true))
    .join('\n');
}
