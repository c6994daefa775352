// `npm pack`/`npm publish` hooks. `prepare` builds dist/ after `npm install` in a clone, but in the
// tarball it only makes npm warn on install (a script nobody allowed, for a build that is already
// in dist/): prepack builds, then packs a package.json without it; postpack puts the original back.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const saved = join(root, '.package.json.unpacked');

if (process.argv[2] === 'prepack') {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  // A pack that died before postpack left the original here: that one is the truth.
  if (!existsSync(saved)) writeFileSync(saved, readFileSync(manifest));
  const pkg = JSON.parse(readFileSync(saved, 'utf8'));
  delete pkg.scripts.prepare;
  writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
} else if (process.argv[2] === 'postpack') {
  if (existsSync(saved)) renameSync(saved, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs prepack|postpack');
  process.exit(2);
}
