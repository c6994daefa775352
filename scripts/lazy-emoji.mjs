// Build-time patch for the two string-width copies in the bundle (Ink's and wrap-ansi's). Their
// emoji test is one huge regular expression (Unicode's RGI emoji list): building and first running
// it cost ~25 ms, on the path to Ink's first frame, for text that holds no emoji at all (the
// status line's │ and …). Every RGI emoji sequence holds a non-ASCII code point with the Emoji
// property or the keycap mark, so a one-class test first answers "no emoji" the same, and the big
// expression is built only for text that may hold one. test/build/lazy-emoji.test.ts checks the patched widths against the
// originals on a corpus.

/**
 * Cheap, exact pre-test: an emoji sequence holds a non-ASCII Emoji code point, or is a keycap
 * (an ASCII digit, # or * with U+20E3). ASCII alone (digits are Emoji too) never is one.
 */
const MAY_BE_EMOJI = 'const __aishMayBeEmoji = /[\\p{Emoji}--[\\x00-\\x7f]]|\\u20e3/v;';

const PATCHES = [
  {
    // string-width 8: `const rgiEmojiRegex = /^\p{RGI_Emoji}$/v;`, used as rgiEmojiRegex.test(segment).
    find: 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    replace: `${MAY_BE_EMOJI}\nlet __aishRgi;\nconst rgiEmojiRegex = {test: (s) => __aishMayBeEmoji.test(s) && (__aishRgi ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(s)};`,
  },
  {
    // string-width 7: `if (emojiRegex().test(character)) {` (a new copy of emoji-regex per character).
    find: 'if (emojiRegex().test(character)) {',
    replace: 'if (__aishMayBeEmoji.test(character) && emojiRegex().test(character)) {',
    prepend: MAY_BE_EMOJI,
  },
];

/** The source with the patch applied, or unchanged when it is not one of the known versions. */
export function lazyEmoji(source) {
  for (const p of PATCHES) {
    if (!source.includes(p.find)) continue;
    const out = source.replace(p.find, () => p.replace); // a function: `$` in the text is not a pattern
    return p.prepend ? `${p.prepend}\n${out}` : out;
  }
  return source;
}

/** esbuild plugin: apply lazyEmoji to every string-width index.js. */
export const lazyEmojiPlugin = {
  name: 'lazy-emoji',
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const patched = lazyEmoji(source);
      if (patched === source)
        console.warn(`lazy-emoji: ${args.path} not patched (unknown version); the build is correct but slower to start`);
      return { contents: patched, loader: 'js' };
    });
  },
};
