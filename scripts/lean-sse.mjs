// Build-time patch for the openai SDK's SSE reader (openai/core/streaming.mjs, iterSSEChunks): after
// each event it copies the rest of its buffer (`data.slice(i)`). A read that brings many events at
// once (a model streaming a token an event, read while aish draws a frame) is copied once per
// event: quadratic in the read, and every copy over 64 bytes is a malloc'd ArrayBuffer that lives
// until the next full GC. Measured on Node 24 over 150 live turns: ~1 MB of RSS a turn. Views
// (`subarray`) of the buffer, which is never written after it is made, give the same bytes; the
// line decoder copies what it keeps. test/build/lean-sse.test.ts checks the patch against the
// original.

const FIND = ['yield data.slice(0, patternIndex);', 'data = data.slice(patternIndex);'];

/** The source with views instead of copies, or unchanged when it is not the known version. */
export function leanSse(source) {
  if (!source.includes('async function* iterSSEChunks(') || !FIND.every((f) => source.includes(f))) return source;
  return source
    .replace(FIND[0], () => 'yield data.subarray(0, patternIndex);')
    .replace(FIND[1], () => 'data = data.subarray(patternIndex);');
}

/** esbuild plugin: apply leanSse to the SDK's streaming module. */
export const leanSsePlugin = {
  name: 'lean-sse',
  setup(b) {
    b.onLoad({ filter: /[\\/]openai[\\/]core[\\/]streaming\.mjs$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      const patched = leanSse(source);
      if (patched === source)
        console.warn(`lean-sse: ${args.path} not patched (unknown version); the build is correct but copies each streamed event's rest`);
      return { contents: patched, loader: 'js' };
    });
  },
};
