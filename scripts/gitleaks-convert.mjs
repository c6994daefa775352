/**
 * Go (RE2) regex syntax to JavaScript, for gitleaks' rules (see scripts/gitleaks-rules.mjs), and the
 * subset of TOML gitleaks.toml is written in. JavaScript on Node 20 lacks inline flag groups, so
 * case folding is spelled out: under (?i) a letter becomes [aA] and a class gains its other case;
 * (?s:.) becomes [\s\S]; \z becomes (?![\s\S]); POSIX classes are expanded; `[]…]` / `[^]…]` get
 * their literal `]` escaped. Anything else it does not know makes it throw.
 */

/** The subset of TOML gitleaks.toml uses: tables, arrays of tables, '''literal''', "basic", numbers, arrays. */
export function parseToml(text) {
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
  const negated = src[j] === '^';
  if (negated) j++;
  const head = negated ? '[^' : '[';
  let out = '';
  if (src[j] === ']') {
    out += '\\]';
    j++;
  }
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
    let len = 1;
    if (src[j] === '\\') {
      if (/[pPx]/.test(src[j + 1]) && !(src[j + 1] === 'x' && src[j + 2] !== '{')) throw new Error(`unsupported escape in class: ${src}`);
      len = src[j + 1] === 'x' ? 4 : 2;
    }
    const atom = src[j] === '[' ? '\\[' : src.slice(j, j + len);
    j += len;
    if (src[j] === '-' && src[j + 1] !== ']') {
      const hiLen = src[j + 1] === '\\' ? 2 : 1;
      const hi = src.slice(j + 1, j + 1 + hiLen);
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
  /** Append `js` for the next `n` characters of the source. */
  const emit = (js, n) => {
    out += js;
    i += n;
  };
  while (i < src.length) {
    const c = src[i];
    const rest = src.slice(i);
    if (c === '\\') {
      const n = src[i + 1];
      if (n === 'z') emit('(?![\\s\\S])', 2);
      else if (n === 'A') emit('^', 2);
      else if (n === 'x' && src[i + 2] !== '{') emit(src.slice(i, i + 4), 4);
      else if (/[pPxQEC]/.test(n)) throw new Error(`unsupported escape \\${n} in ${src}`);
      else emit(src.slice(i, i + 2), 2);
    } else if (c === '[') {
      const [cls, next] = convertClass(src, i, ci);
      emit(cls, next - i);
    } else if (/^\(\?[is]+\)/.test(rest)) {
      // Flags set mid-pattern hold to the end of the enclosing group.
      const set = /^\(\?([is]+)\)/.exec(rest);
      if (set[1].includes('i')) ci = true;
      if (set[1].includes('s')) dotall = true;
      emit('', set[0].length);
    } else if (c === '(') {
      stack.push([ci, dotall]);
      const flags = /^\(\?(-?[is]+|[is]+-[is]+):/.exec(rest);
      if (flags) {
        const [on, off = ''] = flags[1].split('-');
        if (on.includes('i')) ci = true;
        if (on.includes('s')) dotall = true;
        if (off.includes('i')) ci = false;
        if (off.includes('s')) dotall = false;
        emit('(?:', flags[0].length);
      } else if (rest.startsWith('(?P<')) emit('(?<', 4);
      else if (rest.startsWith('(?:') || rest.startsWith('(?<')) emit(rest.slice(0, 3), 3);
      else if (rest.startsWith('(?')) throw new Error(`unsupported group in ${src}`);
      else emit('(', 1);
    } else if (c === ')') {
      [ci, dotall] = stack.pop() ?? [ci, dotall];
      emit(')', 1);
    } else if (c === '.') emit(dotall ? '[\\s\\S]' : '.', 1);
    else if (ci && isLetter(c)) emit(`[${c.toLowerCase()}${c.toUpperCase()}]`, 1);
    else {
      const q = /^\{\d+(,\d*)?\}/.exec(rest);
      emit(q ? q[0] : c, q ? q[0].length : 1);
    }
  }
  // RE2 is linear whatever the pattern; JavaScript backtracks. An unbounded `.*` before a part that
  // can fail (gitleaks' curl rules) costs the square of the line, so the dot is bounded to a line's
  // worth of options.
  out = out.replace(/(?<!\\)\.([*+])(\??)/g, (_, q, lazy) => `.{${q === '*' ? 0 : 1},${DOT_MAX}}${lazy}`);
  new RegExp(out, 'gd'); // throws if the result is not a valid JavaScript regex
  return out;
}
