/** The session's memory: injection follows the store, --no-memory injects nothing, changes are reported. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { MemorySession } from '../../src/memory/session';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

function session(opts: { inject?: boolean; config?: AishConfig } = {}) {
  const path = join(tmpDir(), 'memory.jsonl');
  const notices: string[] = [];
  let changes = 0;
  const m = new MemorySession(
    opts.config ?? DEFAULT_CONFIG,
    path,
    { inject: opts.inject },
    { notice: (k, t) => notices.push(`${k}: ${t}`), changed: () => changes++ },
  );
  return { m, path, notices, changes: () => changes };
}

describe('MemorySession', () => {
  it('loads at start, then re-selects after a change made through its store', async () => {
    const t = session();
    await MemoryStore.open(t.path).add('fact', 'from before');
    expect(t.m.statusValue()).toBeNull(); // still loading
    await t.m.ready();
    expect(t.m.injected.map((i) => i.content)).toEqual(['from before']);
    expect(t.m.statusValue()).toBe(1);
    await t.m.store().add('pref', 'terse');
    t.m.reselect();
    expect(t.m.injected.map((i) => i.content)).toEqual(['terse', 'from before']);
    expect(t.changes()).toBe(2);
  });

  it('with --no-memory the store works but nothing is injected', async () => {
    const t = session({ inject: false });
    await t.m.ready();
    await t.m.store().add('fact', 'x');
    t.m.reselect();
    expect(t.m.injected).toEqual([]);
    expect(t.m.statusValue()).toBe('off');
  });

  it('memory: false refuses the store with a line that says how to turn it on', () => {
    const t = session({ config: { ...DEFAULT_CONFIG, memory: false } });
    expect(t.m.statusValue()).toBe('off');
    expect(() => t.m.store()).toThrow('memory is off in the config (memory: false) — remove that line to use :memory');
  });

  it('a memory path that cannot be read is reported once and the session goes on', async () => {
    const dir = tmpDir();
    const notices: string[] = [];
    const m = new MemorySession(DEFAULT_CONFIG, dir, {}, { notice: (k, t) => notices.push(`${k}: ${t}`), changed: () => {} });
    await m.ready();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^warn: memory not loaded: /);
    expect(m.injected).toEqual([]);
  });
});
