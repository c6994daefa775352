/**
 * The bundles' CommonJS banner (require, __filename and __dirname for dependencies written for
 * CommonJS; scripts/build.mjs) runs in every file that carries it, so only files whose code uses
 * one of the three keep it: each file loaded at start-up would otherwise pay for createRequire,
 * fileURLToPath and dirname. Reads dist/ as the e2e setup built it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

const DIST = join(ROOT, 'dist');
const BANNER = 'const require = __aishCreateRequire(import.meta.url);';

it('only the files that use require, __filename or __dirname carry the banner that defines them', () => {
  const files = readdirSync(DIST, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.js'));
  const carrying: string[] = [];
  for (const f of files) {
    const [first = '', ...rest] = readFileSync(join(DIST, f), 'utf8').split('\n');
    const uses = /\b(require|__filename|__dirname)\b/.test(rest.join('\n'));
    // A file that uses them has them; one that carries them uses them.
    expect(first.includes(BANNER), f).toBe(uses);
    if (uses) carrying.push(f);
  }
  expect(carrying.length).toBeGreaterThan(0); // the CommonJS interop helper at least
  expect(carrying.length).toBeLessThan(files.length / 10);
});
