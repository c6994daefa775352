// `npm run test:stress [-- vitest args…]`: the test suite on a busy machine. Two processes spin on
// the CPU (each stops by itself after STRESS_MINUTES, default 20, and is killed when the run ends)
// while `vitest run` runs beside them; exits with vitest's status. The suite must pass like this:
// its tests wait on states, not on the clock.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const minutes = Number(process.env.STRESS_MINUTES ?? 20);
const BUSY = `const end = Date.now() + ${Math.round(minutes * 60_000)}; while (Date.now() < end) {}`;

const busy = [0, 1].map(() => spawn(process.execPath, ['-e', BUSY], { stdio: 'ignore' }));
const stopBusy = () => {
  for (const b of busy) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
};
process.on('exit', stopBusy);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    stopBusy();
    process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
  });
}

console.error(`test:stress: two busy loops running (pids ${busy.map((b) => b.pid).join(', ')}, at most ${minutes} min)`);
const vitest = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
vitest.on('exit', (code, signal) => {
  stopBusy();
  process.exit(code ?? (signal ? 1 : 0));
});
