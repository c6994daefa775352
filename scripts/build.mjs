// Bundles the CLI so the first start does not pay for resolving hundreds of module files
// (measured here: an unbundled Ink app starts in ~660 ms, bundled ~250 ms).
import { build } from 'esbuild';
import { lazyEmojiPlugin } from './lazy-emoji.mjs';
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// Built beside dist/ and swapped in at the end, so a running aish (or a parallel test run) never
// sees a half-written or missing dist/.
const out = join(root, `.dist-build-${process.pid}`);
const stub = join(root, 'scripts', 'empty-module.mjs');

/**
 * Ink loads Yoga's WebAssembly with fetch(data: URL), which pulls Node's HTTP client (undici) in
 * before the first frame (~20 ms). Emscripten takes the bytes directly as `wasmBinary`; this plugin
 * gives `yoga-layout` to Ink that way. Same module, same API, no fetch.
 */
const yogaDir = join(root, 'node_modules', 'yoga-layout', 'dist');
const yogaWithoutFetch = {
  name: 'yoga-without-fetch',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, () => ({ path: 'yoga-layout', namespace: 'aish-yoga' }));
    b.onLoad({ filter: /.*/, namespace: 'aish-yoga' }, () => {
      const emscripten = readFileSync(join(yogaDir, 'binaries', 'yoga-wasm-base64-esm.js'), 'utf8');
      const m = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(emscripten);
      if (!m) throw new Error('yoga-layout: embedded wasm not found; update scripts/build.mjs');
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

// CommonJS dependencies use require(), __filename and __dirname; ESM output has none of them.
const esmBanner = {
  js: [
    "import { createRequire as __aishCreateRequire } from 'node:module';",
    "import { fileURLToPath as __aishFileURLToPath } from 'node:url';",
    "import { dirname as __aishDirname } from 'node:path';",
    'const require = __aishCreateRequire(import.meta.url);',
    'const __filename = __aishFileURLToPath(import.meta.url);',
    'const __dirname = __aishDirname(__filename);',
  ].join(' '),
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src/frontends/cli/main.ts',
    'repl-ui': 'src/frontends/cli/repl-ui-entry.ts',
    define: 'src/config/define.ts',
  },
  outdir: out,
  bundle: true,
  splitting: true, // lazy import() of heavy SDKs becomes separate chunks, loaded on first use
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  jsx: 'automatic',
  legalComments: 'none',
  // jiti ships its own single-file bundle and resolves babel lazily; keep it external.
  // web-tree-sitter stays in node_modules next to its tree-sitter.wasm (src/tools/safety/shell-parser.ts).
  external: ['jiti', 'web-tree-sitter'],
  alias: { 'react-devtools-core': stub },
  // React and Ink pick their production builds (the development build is several times slower).
  define: { 'process.env.DEV': '"false"', 'process.env.NODE_ENV': '"production"' },
  banner: esmBanner,
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [yogaWithoutFetch, lazyEmojiPlugin],
  logLevel: 'warning',
});

// Plain `aish`'s entry as one file, without splitting: Node's ES module loader costs ~0.5 ms per
// file, and this is the path to the first frame (src/frontends/cli/repl-entry.ts). It loads the UI
// from dist/repl-ui.js at run time; the modules both need are copied into each.
await build({
  absWorkingDir: root,
  entryPoints: { repl: 'src/frontends/cli/repl-entry.ts' },
  outdir: out,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['jiti', 'web-tree-sitter'],
  define: { 'process.env.NODE_ENV': '"production"' },
  banner: esmBanner,
  logLevel: 'warning',
});

// `aish memory add KIND TEXT…` as one CommonJS file: Node loads it without its ES module loader,
// which costs the command scripts run most ~15 ms (src/frontends/cli/quick-add.ts).
await build({
  absWorkingDir: root,
  entryPoints: { 'memory-add': 'src/frontends/cli/quick-add.ts' },
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  external: ['jiti', 'web-tree-sitter'],
  // import.meta.url (config loading, the example config's path) is this file's URL, as in the ESM bundle.
  define: { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__aishImportMetaUrl' },
  banner: { js: "const __aishImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');

// Another build may swap its own dist/ in between our two renames: move that one aside too, retry.
for (let attempt = 0; ; attempt++) {
  const old = join(root, `.dist-old-${process.pid}-${attempt}`);
  try {
    renameSync(dist, old);
  } catch {
    // no previous build
  }
  try {
    renameSync(out, dist);
    rmSync(old, { recursive: true, force: true });
    break;
  } catch (err) {
    rmSync(old, { recursive: true, force: true });
    if (attempt >= 5) throw err;
  }
}
