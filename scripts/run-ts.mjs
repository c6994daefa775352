// Runs a TypeScript entry (benchmarks, soak) by bundling it with esbuild into a temp file first:
// no extra runtime dependency, and the code measured is the same code the bundle ships.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs FILE.ts [args…]');
  process.exit(2);
}
// Inside the checkout, so the external node_modules imports resolve.
const cache = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'aish-run-'));
const outfile = join(dir, 'main.mjs');
try {
  await build({
    entryPoints: [resolve(entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    define: { 'import.meta.dirname': JSON.stringify(resolve(entry, '..')) },
  });
  // --expose-gc: benchmarks collect before each sample so no run pays for the previous one's garbage.
  const r = spawnSync(process.execPath, ['--expose-gc', outfile, ...args], { stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
