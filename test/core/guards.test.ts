/** Guards: a checkpoint that cannot be taken is said once a session, and answered false before and around a step. */
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../../src/checkpoints/lazy';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { Guards } from '../../src/core/guards';

describe('Guards: a checkpoint not taken', () => {
  it('snapshot and watch failing: false each time, one warning for the session', async () => {
    const fail = () => Promise.reject(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    const store = { dir: '/nowhere', snapshot: fail, watch: fail } as unknown as CheckpointStore;
    const warnings: string[] = [];
    const guards = new Guards({ ...DEFAULT_CONFIG.safety, checkpoints: true }, store, (t) => warnings.push(t));
    expect(await guards.checkpoint('rm -rf build')).toBe(false);
    expect(await guards.watch('rm -rf build')).toBe(false);
    expect(await guards.checkpoint('rm -rf dist')).toBe(false);
    expect(warnings).toEqual(['checkpoint not taken (:restore cannot undo this step): ENOSPC: no space left on device']);
  });
});
