#!/usr/bin/env node
/**
 * Converts gitleaks' default rule set (config/gitleaks.toml, MIT) into JavaScript regex sources for
 * src/util/secrets/gitleaks-rules.json.
 *
 *   node scripts/gitleaks-rules.mjs <path/to/gitleaks.toml> <version> && npx prettier --write src/util/secrets/gitleaks-rules.json
 *
 * gitleaks' regexes are Go (RE2) syntax. JavaScript on Node 20 lacks inline flag groups, so case
 * folding is spelled out: under (?i) a letter becomes [aA] and a class gains its other case;
 * (?s:.) becomes [\s\S]; \z becomes (?![\s\S]); POSIX classes are expanded; `[]…]` / `[^]…]` get
 * their literal `]` escaped. Anything else this converter does not know makes it fail loudly.
 * Rules that only apply to a file path (aish redacts text that has none) are left out and listed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [tomlPath, version] = process.argv.slice(2);
if (!tomlPath || !version) {
  console.error('usage: node scripts/gitleaks-rules.mjs <gitleaks.toml> <version, e.g. v8.30.0-27-gb58d3f10>');
  process.exit(2);
}
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'util', 'secrets', 'gitleaks-rules.json');

/** The subset of TOML gitleaks.toml uses: tables, arrays of tables, '''literal''', "basic", numbers, arrays. */
function parseToml(text) {
  const root = { rules: [] };
  let cur = root;
  const lines = text.split('\n');
  const value = (s) => {
    const items = [];
    const re = /'''(.*?)'''|"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?)/g;
    for (const m of s.matchAll(re)) items.push(m[1] ?? (m[2] !== undefined ? JSON.parse(`"${m[2]}"`) : Number(m[3])));
    return items;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    if (line === '[[rules]]') root.rules.push((cur = { allowlists: [] }));
    else if (line === '[[rules.allowlists]]') root.rules.at(-1).allowlists.push((cur = {}));
    else if (line === '[allowlist]') cur = root.allowlist = {};
    else {
      const m = /^(\w+)\s*=\s*(.*)$/.exec(line);
      if (!m) throw new Error(`line ${i + 1}: cannot parse ${line}`);
      let rest = m[2];
      if (rest.startsWith('[')) {
        while (!/\]\s*$/.test(rest) || rest.trim() === '[') rest += '\n' + lines[++i];
        cur[m[1]] = value(rest.slice(1, rest.lastIndexOf(']')));
      } else cur[m[1]] = value(rest)[0];
    }
  }
  return root;
}

const POSIX = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  xdigit: '0-9a-fA-F',
  space: '\\s',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};
/** How far one unbounded `.` repetition may reach. */
const DOT_MAX = 256;
const isLetter = (c) => /^[a-zA-Z]$/.test(c);
const other = (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());

/** One character class starting at src[i] === '['; returns [js, next index]. */
function convertClass(src, i, ci) {
  let j = i + 1;
  let head = '[';
  if (src[j] === '^') ((head += '^'), j++);
  let out = '';
  if (src[j] === ']') ((out += '\\]'), j++);
  const extra = [];
  while (src[j] !== ']') {
    if (j >= src.length) throw new Error(`unterminated class in ${src}`);
    if (src.startsWith('[:', j)) {
      const end = src.indexOf(':]', j);
      const cls = POSIX[src.slice(j + 2, end)];
      if (!cls) throw new Error(`unknown POSIX class in ${src}`);
      out += cls;
      j = end + 2;
      continue;
    }
    let atom;
    if (src[j] === '\\') {
      if (src[j + 1] === 'x' && src[j + 2] !== '{') ((atom = src.slice(j, j + 4)), (j += 4));
      else if (/[pPx]/.test(src[j + 1])) throw new Error(`unsupported escape in class: ${src}`);
      else ((atom = src.slice(j, j + 2)), (j += 2));
    } else if (src[j] === '[') ((atom = '\\['), j++);
    else ((atom = src[j]), j++);
    if (src[j] === '-' && src[j + 1] !== ']') {
      let hi = src[j + 1];
      let hiLen = 1;
      if (hi === '\\') ((hi = src.slice(j + 1, j + 3)), (hiLen = 2));
      if (ci && isLetter(atom) && isLetter(hi) && atom <= 'Z' === hi <= 'Z') extra.push(`${other(atom)}-${other(hi)}`);
      out += `${atom}-${hi}`;
      j += 1 + hiLen;
    } else {
      if (ci && isLetter(atom)) extra.push(other(atom));
      out += atom;
    }
  }
  return [head + extra.join('') + out + ']', j + 1];
}

/** Go RE2 pattern → JavaScript pattern (no flags needed). */
export function convert(src) {
  let ci = false;
  let dotall = false;
  let i = 0;
  const lead = /^\(\?([is]+)\)/.exec(src);
  if (lead) {
    ci = lead[1].includes('i');
    dotall = lead[1].includes('s');
    i = lead[0].length;
  }
  const stack = [];
  let out = '';
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      if (n === 'z') ((out += '(?![\\s\\S])'), (i += 2));
      else if (n === 'A') ((out += '^'), (i += 2));
      else if (n === 'x' && src[i + 2] !== '{') ((out += src.slice(i, i + 4)), (i += 4));
      else if (/[pPxQEC]/.test(n)) throw new Error(`unsupported escape \\${n} in ${src}`);
      else ((out += src.slice(i, i + 2)), (i += 2));
    } else if (c === '[') {
      const [cls, next] = convertClass(src, i, ci);
      out += cls;
      i = next;
    } else if (/^\(\?[is]+\)/.test(src.slice(i))) {
      // Flags set mid-pattern hold to the end of the enclosing group.
      const set = /^\(\?([is]+)\)/.exec(src.slice(i));
      if (set[1].includes('i')) ci = true;
      if (set[1].includes('s')) dotall = true;
      i += set[0].length;
    } else if (c === '(') {
      stack.push([ci, dotall]);
      const flags = /^\(\?(-?[is]+|[is]+-[is]+):/.exec(src.slice(i));
      if (flags) {
        const [on, off = ''] = flags[1].split('-');
        if (on.includes('i')) ci = true;
        if (on.includes('s')) dotall = true;
        if (off.includes('i')) ci = false;
        if (off.includes('s')) dotall = false;
        out += '(?:';
        i += flags[0].length;
      } else if (src.startsWith('(?P<', i)) ((out += '(?<'), (i += 4));
      else if (src.startsWith('(?:', i) || src.startsWith('(?<', i)) ((out += src.slice(i, i + 3)), (i += 3));
      else if (src.startsWith('(?', i)) throw new Error(`unsupported group in ${src}`);
      else ((out += '('), i++);
    } else if (c === ')') {
      [ci, dotall] = stack.pop() ?? [ci, dotall];
      out += ')';
      i++;
    } else if (c === '.') ((out += dotall ? '[\\s\\S]' : '.'), i++);
    else if (ci && isLetter(c)) ((out += `[${c.toLowerCase()}${c.toUpperCase()}]`), i++);
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(src.slice(i))) {
      const q = /^\{\d+(,\d*)?\}/.exec(src.slice(i))[0];
      out += q;
      i += q.length;
    } else ((out += c), i++);
  }
  // RE2 is linear whatever the pattern; JavaScript backtracks. An unbounded `.*` before a part that
  // can fail (gitleaks' curl rules) costs the square of the line, so the dot is bounded to a line's
  // worth of options.
  out = out.replace(/(?<!\\)\.([*+])(\??)/g, (_, q, lazy) => `.{${q === '*' ? 0 : 1},${DOT_MAX}}${lazy}`);
  new RegExp(out, 'gd'); // throws if the result is not a valid JavaScript regex
  return out;
}

const toml = parseToml(readFileSync(tomlPath, 'utf8'));
const rules = [];
const skipped = [];
for (const r of toml.rules) {
  if (!r.regex) {
    skipped.push({ id: r.id, why: 'matches file paths only' });
    continue;
  }
  if (r.path) {
    skipped.push({ id: r.id, why: `applies only to files matching ${r.path}` });
    continue;
  }
  const allow = [];
  for (const a of r.allowlists) {
    if (a.paths || a.commits) continue; // needs a file path or commit, which redacted text has not
    allow.push({ target: a.regexTarget ?? 'secret', res: (a.regexes ?? []).map(convert), stopwords: a.stopwords ?? [] });
  }
  rules.push({
    id: r.id,
    re: convert(r.regex),
    group: r.secretGroup ?? 0,
    entropy: r.entropy ?? 0,
    keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
    allow,
  });
}
const out = {
  source: 'gitleaks/gitleaks config/gitleaks.toml (https://github.com/gitleaks/gitleaks), generated by scripts/gitleaks-rules.mjs',
  version,
  license: 'MIT License, Copyright (c) 2019 Zachary Rice',
  global: { res: (toml.allowlist.regexes ?? []).map(convert), stopwords: toml.allowlist.stopwords ?? [] },
  rules,
  skipped,
};
writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
console.log(`${rules.length} rules written to ${OUT}, ${skipped.length} skipped`);
