// Tests run the real CLI from dist/: build it once so they never test a stale bundle.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TEST_COMPILE_CACHE } from './run-cli';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  // Compiled code of earlier builds is never read again: start the shared cache empty.
  rmSync(TEST_COMPILE_CACHE, { recursive: true, force: true });
}
