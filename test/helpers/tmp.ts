import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh temporary directory, removed when the current test finishes. Call it inside a test (not
 * in a concurrent one: vitest cannot tell which of them is current). The hook is per call, not a
 * module-level afterEach, so cleanup also works when test files share one module cache (the unit
 * project runs with isolate: false).
 */
export function tmpDir(prefix = 'aish-test-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a capture aish handed off at quit may still be writing into the directory.
  onTestFinished(() => rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 }));
  return d;
}
