// Runs a TypeScript entry (benchmarks, soak) by bundling it with esbuild into a temp file first:
// no extra runtime dependency, and the code measured is the same code the bundle ships.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * The node that runs the code (and every aish it spawns: they use process.execPath): Node 24, what
 * BENCHMARKS.md reports, from the copy .ci/run keeps when this node is older; AISH_NODE picks another.
 */
function benchNode() {
  if (process.env.AISH_NODE) return process.env.AISH_NODE;
  if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
  const arch = process.arch === 'arm64' ? 'linux-arm64' : 'linux-x64';
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const pinned = join(cache, 'aish-ci', `node-${arch}-24.22.3`, 'node_modules', `node-${arch}`, 'bin', 'node');
  if (existsSync(pinned)) return pinned;
  console.error(`run-ts: Node ${process.versions.node}; BENCHMARKS.md reports Node 24 (.ci/run fetches it once)`);
  return process.execPath;
}

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
  const node = benchNode();
  const env = { ...process.env, PATH: [dirname(node), process.env.PATH].join(delimiter) };
  const r = spawnSync(node, ['--expose-gc', outfile, ...args], { stdio: 'inherit', env });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
