// Used by scripts/build.mjs, and by the Ink floor of bench/first-prompt.ts so it is built the same way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const yogaDir = dirname(dirname(createRequire(import.meta.url).resolve('yoga-layout')));

/**
 * Ink loads Yoga's WebAssembly with fetch(data: URL), which pulls Node's HTTP client (undici) in
 * before the first frame (~20 ms). Emscripten takes the bytes directly as `wasmBinary`; this plugin
 * gives `yoga-layout` to Ink that way. Same module, same API, no fetch. The Emscripten module is
 * bundled with its own copy of the bytes emptied (it reads `wasmBinary` instead), so the ~90 KB of
 * base64 is parsed once per start, not twice.
 */
const DATA_URL = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;
const emscriptenPath = () => join(yogaDir, 'binaries', 'yoga-wasm-base64-esm.js');

export const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: 'yoga-layout', namespace: 'aish-yoga' }));
    b.onResolve({ filter: /yoga-wasm-base64-esm\.js$/, namespace: 'aish-yoga' }, () => ({
      path: 'emscripten',
      namespace: 'aish-yoga-wasm',
    }));
    b.onLoad({ filter: /.*/, namespace: 'aish-yoga-wasm' }, () => ({
      resolveDir: join(yogaDir, 'binaries'),
      loader: 'js',
      contents: readFileSync(emscriptenPath(), 'utf8').replace(DATA_URL, 'data:application/octet-stream;base64,'),
    }));
    b.onLoad({ filter: /.*/, namespace: 'aish-yoga' }, () => {
      const m = DATA_URL.exec(readFileSync(emscriptenPath(), 'utf8'));
      if (!m) throw new Error('yoga-layout: embedded wasm not found; update scripts/yoga-without-fetch.mjs');
      return {
        resolveDir: join(yogaDir, 'src'),
        loader: 'js',
        contents: [
          "import loadYoga from '../binaries/yoga-wasm-base64-esm.js';",
          "import wrapAssembly from './wrapAssembly.js';",
          `const Yoga = wrapAssembly(await loadYoga({ wasmBinary: Buffer.from(${JSON.stringify(m[1])}, 'base64') }));`,
          'export default Yoga;',
          "export * from './generated/YGEnums.js';",
        ].join('\n'),
      };
    });
  },
};
