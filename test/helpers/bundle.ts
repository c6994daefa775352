/**
 * Child processes in tests are real Node processes running our real modules: a TypeScript worker
 * is bundled once per test run with esbuild (the project's own bundler) and run with `node`.
 */
import { buildSync } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './paths';

const outDir = join(tmpdir(), `aish-test-workers-${process.pid}`);
const built = new Map<string, string>();
process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));

export function workerScript(name: string): string {
  const cached = built.get(name);
  if (cached) return cached;
  mkdirSync(outDir, { recursive: true });
  const outfile = bundleScript(join(ROOT, 'test', 'helpers', 'workers', `${name}.ts`), join(outDir, `${name}.mjs`));
  built.set(name, outfile);
  return outfile;
}

/** Bundles one TypeScript entry into an ES module `node` can run (CommonJS dependencies get a require). */
export function bundleScript(entry: string, outfile: string): string {
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return outfile;
}
