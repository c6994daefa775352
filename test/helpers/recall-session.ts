/**
 * Recall over a memory.jsonl of developer notes with nothing in [background] (every item is
 * recall's to choose), outside every project; the sessions a test opens are closed after it.
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig, type MemoryConfig } from '../../src/config/types';
import { MemorySession } from '../../src/memory/session';
import { writeNotes, type Note } from './dev-notes';
import { tmpDir } from './tmp';

const base = DEFAULT_CONFIG.memory as MemoryConfig;
const CONFIG: AishConfig = { ...DEFAULT_CONFIG, memory: { ...base, injectMaxChars: 0 } };

/** Call at a test file's top level: `sessionWith(notes)` opens a ready session over those notes. */
export function recallSessions(): (notes: readonly Note[]) => Promise<MemorySession> {
  const open: MemorySession[] = [];
  afterEach(() => {
    for (const m of open.splice(0)) m.close();
  });
  return async (notes) => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeNotes(path, notes);
    const m = new MemorySession(CONFIG, path, { cwd: () => '/work/elsewhere' }, { notice: () => {}, changed: () => {} });
    open.push(m);
    await m.ready();
    return m;
  };
}
