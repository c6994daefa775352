/**
 * What a turn may recall is told from the index where it can be (an item of no project, live in
 * the index, is not read to be weighed): an item already in [background] is still not recalled
 * again, and another project's item still is not recalled here.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { MemorySession } from '../../src/memory/session';
import { fillerNotes, writeNotes, type Note } from '../helpers/dev-notes';
import { tmpDir } from '../helpers/tmp';

const open: MemorySession[] = [];
afterEach(() => {
  for (const m of open.splice(0)) m.close();
});

async function sessionWith(notes: readonly Note[], cwd: string): Promise<MemorySession> {
  const path = join(tmpDir(), 'memory.jsonl');
  writeNotes(path, notes);
  const m = new MemorySession(DEFAULT_CONFIG, path, { cwd: () => cwd }, { notice: () => {}, changed: () => {} });
  open.push(m);
  await m.ready();
  return m;
}

describe('recall weighs items from the index', () => {
  it('an item in [background] is not recalled again; one of another project is not recalled here', async () => {
    const proj = tmpDir();
    const notes: Note[] = [
      { content: 'The release checklist lives in docs/release-checklist.md', ts: '2024-01-01T00:00:00Z' },
      { content: 'The release checklist for the mobile app is in the wiki', scope: proj, ts: '2024-01-02T00:00:00Z' },
      ...fillerNotes(200),
      { content: 'The release checklist needs a sign-off from QA' },
    ];
    const m = await sessionWith(notes, '/work/elsewhere');
    const inBackground = m.injected.map((it) => it.content);
    expect(inBackground).toContain(notes.at(-1)!.content);
    const turn = await m.recall([{ text: 'where is the release checklist?', weight: 1 }]);
    const sent = turn?.items.map((r) => r.item.content) ?? [];
    expect(sent).toContain(notes[0]!.content);
    expect(sent).not.toContain(notes.at(-1)!.content);
    expect(sent).not.toContain(notes[1]!.content);
  });
});
