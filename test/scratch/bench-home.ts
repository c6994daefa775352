import { mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { watchHome } from '../../src/checkpoints/outside';
const home = mkdtempSync('/var/tmp/a4home-');
const n = Number(process.argv[2] ?? 2000);
for (let i = 0; i < n; i++) {
  const d = join(home, i % 3 === 0 ? '.config' : i % 3 === 1 ? '.local/share/app' : '.vim', `d${i % 50}`);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `f${i}`), 'x'.repeat(200));
}
for (let i = 0; i < 20; i++) writeFileSync(join(home, `.rc${i}`), 'export X=1\n');
const times: number[] = [];
for (let r = 0; r < 7; r++) {
  const t0 = performance.now();
  const w = watchHome(home, []);
  await w.check();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(`${n} files in HOME's dot entries: watch + check median ${times[3]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[6]!.toFixed(1)})`);
