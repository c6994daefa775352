// Build-time patch for Ink's text measurement (ink/build/measure-text.js): it caches the size of
// every distinct text it ever laid out in one module-level Map, with no bound. In a long REPL
// session that is every answer, every state of the input line and every status line: a heap
// snapshot after 500 turns found ~40 entries and a second copy of each answer per turn, kept for
// good (~5 KB a turn). A cache that starts over when it holds MAX_TEXTS keeps the speed (a frame
// lays out a few dozen texts) without keeping the session. test/build/bounded-ink-cache.test.ts
// checks the patched module against the original and that the bound holds.

/** Distinct texts Ink keeps measured: many times what one frame lays out. */
export const MAX_TEXTS = 2000;

const FIND = 'cache.set(text, dimensions);';

/** The source with the bound applied, or unchanged when it is not the known version. */
export function boundInkCache(source) {
  if (!source.includes('const cache = new Map();') || !source.includes(FIND)) return source;
  return (
    source.replace(FIND, () => `if (cache.size >= ${MAX_TEXTS}) cache.clear();\n    ${FIND}`) +
    '\nexport const __aishMeasuredTexts = () => cache.size;\n'
  );
}

/** esbuild plugin: apply boundInkCache to Ink's measure-text.js. */
export const boundedInkCachePlugin = {
  name: 'bounded-ink-cache',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]measure-text\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const patched = boundInkCache(source);
      if (patched === source)
        console.warn(
          `bounded-ink-cache: ${args.path} not patched (unknown version); the build is correct but keeps every text it measured`,
        );
      return { contents: patched, loader: 'js' };
    });
  },
};
