// Bundles the CLI so the first start does not pay for resolving hundreds of module files
// (measured here: an unbundled Ink app starts in ~660 ms, bundled ~250 ms).
import { build } from 'esbuild';
import { boundedInkCachePlugin } from './bounded-ink-cache.mjs';
import { lazyEmojiPlugin } from './lazy-emoji.mjs';
import { leanSsePlugin } from './lean-sse.mjs';
import { leanInkOutputPlugin } from './lean-ink-output.mjs';
import { yogaWithoutFetch } from './yoga-without-fetch.mjs';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// Built beside dist/ and swapped in at the end, so a running aish (or a parallel test run) never
// sees a half-written or missing dist/.
const out = join(root, `.dist-build-${process.pid}`);
const stub = join(root, 'scripts', 'empty-module.mjs');

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

const shared = {
  absWorkingDir: root,
  outdir: out,
  bundle: true,
  // Every lazy import() (the REPL's UI, the SDKs, Markdown, the tokenizer, each command) becomes its
  // own chunk, loaded on first use.
  splitting: true,
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
  plugins: [yogaWithoutFetch, lazyEmojiPlugin, boundedInkCachePlugin, leanSsePlugin, leanInkOutputPlugin],
  logLevel: 'warning',
};

// Two bundles, each with its own chunks (the same dist/chunks/, so paths found from a chunk hold
// for both). The bundler cuts code into one file per set of entries and lazy imports that reach
// it: in one bundle, each command's lazy import() cut the REPL's start-up code into ~20 more files
// (89 loaded before the first prompt instead of 68), each a cost to the ES module loader. Plain
// `aish` (cli.js) therefore leaves the command line out; `aish ARGS` (cli-args.js, which bin/aish.cjs
// picks) has commander and every command, sessions included, and loads only what its command uses.
await Promise.all([
  build({
    ...shared,
    entryPoints: { cli: 'src/frontends/cli/main.ts', define: 'src/config/define.ts' },
    chunkNames: 'chunks/[name]-[hash]',
  }),
  build({
    ...shared,
    entryPoints: { 'cli-args': 'src/frontends/cli/main-args.ts' },
    chunkNames: 'chunks/args-[name]-[hash]',
  }),
]);

// The banner runs in every file the bundles load (createRequire, fileURLToPath and dirname: part of
// what each chunk costs at start); only the few whose code uses require, __filename or __dirname
// keep it. The line stays, empty, so the source maps still match.
for (const f of readdirSync(out, { recursive: true })) {
  if (!f.endsWith('.js')) continue;
  const text = readFileSync(join(out, f), 'utf8');
  if (!text.startsWith(esmBanner.js + '\n')) continue;
  const code = text.slice(esmBanner.js.length);
  if (!/\b(require|__filename|__dirname)\b/.test(code)) writeFileSync(join(out, f), code);
}

writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');

// The bash grammar ships as its .wasm inside dist/ (src/tools/safety/shell-parser.ts finds it there),
// so tree-sitter-bash is only a build-time dependency: installing aish never meets its native
// install script, which the WebAssembly build does not need.
const grammarDir = dirname(createRequire(import.meta.url).resolve('tree-sitter-bash/package.json'));
copyFileSync(join(grammarDir, 'tree-sitter-bash.wasm'), join(out, 'tree-sitter-bash.wasm'));
copyFileSync(join(grammarDir, 'LICENSE'), join(out, 'tree-sitter-bash.LICENSE'));

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
