/**
 * A FIFO where aish expects a regular file it reads or appends to: refused or passed over at once
 * (util/fs-safe.ts openRegular), never waited on. The cases not covered by the e2e FIFO tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSmallFile } from '../../src/memory/project/git-repo';
import { noteRecalled, readRecallUse, recallUsePath } from '../../src/memory/review/recall-use';
import { readTail } from '../../src/memory/sync/tail';
import { readTeamDir, readTeamFileText, teamDir } from '../../src/memory/team/team-file';
import { shareItem } from '../../src/memory/team/team-share';
import type { MemoryItem } from '../../src/memory/types';
import { openRegular } from '../../src/util/fs-safe';
import { tmpDir } from '../helpers/tmp';

const fifo = (path: string) => execFileSync('mkfifo', [path]);

describe('a FIFO in place of a file aish reads', () => {
  it('openRegular refuses it with ENOTREG, without waiting for a writer', () => {
    const path = join(tmpDir(), 'pipe');
    fifo(path);
    expect(() => openRegular(path, 0)).toThrow(expect.objectContaining({ code: 'ENOTREG' }) as Error);
  });

  it('the recall notes: a note is not written into it, and reading them finds none', async () => {
    const memoryPath = join(tmpDir(), 'memory.jsonl');
    fifo(recallUsePath(memoryPath));
    const item = { id: 1, uid: '01JV0000000000000000000000', ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'x' } as MemoryItem;
    noteRecalled(memoryPath, [{ item }]);
    await new Promise((r) => setImmediate(r)); // the note is written after the turn
    expect(statSync(recallUsePath(memoryPath)).isFIFO()).toBe(true);
    expect(readRecallUse(memoryPath).size).toBe(0);
  });

  it('a team file: passed over with one warning, and not read by name either', () => {
    const root = tmpDir();
    mkdirSync(teamDir(root), { recursive: true });
    fifo(join(teamDir(root), 'alice.jsonl'));
    writeFileSync(
      join(teamDir(root), 'bob.jsonl'),
      JSON.stringify({ uid: 'B1', ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'hi' }) + '\n',
    );
    const r = readTeamDir(root);
    expect(r.items.map((i) => i.content)).toEqual(['hi']);
    expect(r.warnings).toEqual(['.aish/memory/alice.jsonl: not a regular file (skipped)']);
    expect(readTeamFileText(join(teamDir(root), 'alice.jsonl'))).toBeUndefined();
  });

  it("a repository's small files (HEAD, commondir) as FIFOs read as nothing", () => {
    const path = join(tmpDir(), 'HEAD');
    fifo(path);
    expect(readSmallFile(path, 4096)).toBeUndefined();
  });

  it("the user's own team file as a FIFO: sharing refuses in one line, nothing written", () => {
    const root = tmpDir();
    execFileSync('git', ['init', '-q', root]);
    mkdirSync(teamDir(root), { recursive: true });
    fifo(join(teamDir(root), 'alice.jsonl'));
    const item = {
      id: 3,
      uid: '01JV0000000000000000000003',
      ts: '2026-01-01T00:00:00Z',
      kind: 'fact',
      content: 'ci is buildkite',
    } as MemoryItem;
    expect(() => shareItem(item, root, 'alice')).toThrow(/^cannot write .*alice\.jsonl: .*not a regular file — nothing was shared$/);
  });

  it('a sync writer file turned FIFO is not read', () => {
    const path = join(tmpDir(), 'w.jsonl');
    fifo(path);
    expect(readTail(path, 0)).toBeNull();
  });
});
