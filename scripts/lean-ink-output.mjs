// Build-time patches for how Ink turns a frame into text (up to 30 frames a second while an answer
// streams). An allocation profile of 100 live turns on Node 24 found ~17 MB allocated a turn, two
// thirds of it here: every cell of the frame is a new object with a new empty style list
// (ink/build/output.js), and between every two cells @alcalzone/ansi-tokenize's styledCharsToString
// builds four Sets and several arrays to find that the style did not change. The garbage is
// collected, but at that rate V8 grows its young generation and promotes enough of it to keep
// ~100 MB more resident. Patched: one shared blank cell (cells are replaced, never changed), and
// no diff when two neighbours' styles are the same codes (the diff of equal lists is empty).
// test/build/lean-ink-output.test.ts checks both against the originals.

const BLANK_FIND = `row.push({
                    type: 'char',
                    value: ' ',
                    fullWidth: false,
                    styles: [],
                });`;

/** Ink's output.js with one shared blank cell, or unchanged when it is not the known version. */
export function leanInkOutput(source) {
  if (!source.includes(BLANK_FIND) || !source.includes('get() {')) return source;
  return (
    source.replace(BLANK_FIND, () => 'row.push(blankCell);') +
    "\n// One blank cell for every empty position of every frame: get() replaces cells, never changes them.\nconst blankCell = Object.freeze({ type: 'char', value: ' ', fullWidth: false, styles: Object.freeze([]) });\n"
  );
}

const DIFF_FIND = 'ret += ansiCodesToString(diffAnsiCodes(chars[i - 1].styles, char.styles));';
const END_FIND = 'ret += ansiCodesToString(diffAnsiCodes(char.styles, []));';

/** ansi-tokenize's styledChars.js without the diff of equal styles, or unchanged when it is not the known version. */
export function leanStyledChars(source) {
  if (!source.includes('export function styledCharsToString(') || !source.includes(DIFF_FIND) || !source.includes(END_FIND)) return source;
  return (
    source
      .replace(DIFF_FIND, () => `if (!sameStyles(chars[i - 1].styles, char.styles)) ${DIFF_FIND}`)
      .replace(END_FIND, () => `if (char.styles.length > 0) ${END_FIND}`) +
    `
/** The same codes in the same order: their diff is empty either way. */
function sameStyles(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
        if (a[i].code !== b[i].code || a[i].endCode !== b[i].endCode) return false;
    }
    return true;
}
`
  );
}

const PATCHES = [
  { name: 'ink/build/output.js', filter: /[\\/]ink[\\/]build[\\/]output\.js$/, patch: leanInkOutput },
  {
    name: 'ansi-tokenize styledChars.js',
    filter: /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/,
    patch: leanStyledChars,
  },
];

/** esbuild plugin: apply both patches. */
export const leanInkOutputPlugin = {
  name: 'lean-ink-output',
  setup(b) {
    for (const p of PATCHES)
      b.onLoad({ filter: p.filter }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const source = await readFile(args.path, 'utf8');
        const patched = p.patch(source);
        if (patched === source)
          console.warn(`lean-ink-output: ${args.path} not patched (unknown version); the build is correct but allocates more per frame`);
        return { contents: patched, loader: 'js' };
      });
  },
};
