// Bundles the CLI so the first start does not pay for resolving hundreds of module files
// (NOTES.md: an unbundled Ink app starts in ~660 ms, bundled ~250 ms).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stub = join(root, 'scripts', 'empty-module.mjs');

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli.ts', define: 'src/config/define.ts' },
  outdir: dist,
  bundle: true,
  splitting: true, // lazy import() of heavy SDKs becomes separate chunks, loaded on first use
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  jsx: 'automatic',
  legalComments: 'none',
  // jiti ships its own single-file bundle and resolves babel lazily; keep it external.
  external: ['jiti'],
  alias: { 'react-devtools-core': stub },
  define: { 'process.env.DEV': '"false"' },
  // CommonJS dependencies use require(), __filename and __dirname; ESM output has none of them.
  banner: {
    js: [
      "import { createRequire as __aishCreateRequire } from 'node:module';",
      "import { fileURLToPath as __aishFileURLToPath } from 'node:url';",
      "import { dirname as __aishDirname } from 'node:path';",
      'const require = __aishCreateRequire(import.meta.url);',
      'const __filename = __aishFileURLToPath(import.meta.url);',
      'const __dirname = __aishDirname(__filename);',
    ].join(' '),
  },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

writeFileSync(join(dist, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');
