import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Unit tests write many small files and fsync them; on a RAM disk that costs nothing. The e2e tests
// keep the real disk: their crash and concurrency checks are about it.
const ramDisk = existsSync('/dev/shm') ? { TMPDIR: '/dev/shm' } : {};

/**
 * Two projects. `unit`: everything in the test process — no child processes, worker threads or
 * PTYs (test/helpers/unit-guard.ts fails any test that starts one) and no dist/ build. `e2e`
 * (test/e2e/): tests that run the built CLI or other real processes; dist/ is built once first.
 * `vitest run` runs both; `--project unit` / `--project e2e` runs one.
 */
export default defineConfig({
  test: {
    // A test that asserts nothing cannot fail: each must make at least one expect() call.
    expect: { requireAssertions: true },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Several suites spawn many real processes; two cores are shared, so run files two at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          // test/build/ checks the build's patches of third-party modules against the originals (every
          // code point of the emoji ranges): the build's tests, run with the e2e project.
          exclude: ['test/e2e/**', 'test/build/**'],
          setupFiles: ['test/helpers/unit-guard.ts'],
          env: ramDisk,
          // Files share a worker's loaded modules: about half the CPU of loading them per file. A
          // test that replaces a module must load its dependents afresh (see test/memory/lock.test.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/e2e/**/*.test.tsx', 'test/build/**/*.test.ts'],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
