/** Reading teammates' files from `.aish/memory/`: bounded, tolerant of what a checkout may hold, newest first. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { authorOfFile, readTeamDir, TEAM_FILE_MAX_BYTES, TEAM_LINE_MAX_BYTES, teamDir } from '../../src/memory/team/team-file';
import { tmpDir } from '../helpers/tmp';

const line = (uid: string, content: string, ts = '2026-01-01T00:00:00.000Z', extra: object = {}) =>
  JSON.stringify({ uid, ts, kind: 'fact', content, author: 'whoever', scope: 'git:elsewhere/x', ...extra });

function project(files: Record<string, string>): string {
  const root = tmpDir();
  mkdirSync(teamDir(root), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(teamDir(root), name), text);
  return root;
}

describe('team files', () => {
  it('labels items by the file’s name, newest first, with negative ids; later lines for a uid win', () => {
    const root = project({
      'alice.jsonl': [line('A1', 'old text'), line('A2', 'second', '2026-02-01T00:00:00.000Z'), line('A1', 'new text')].join('\n') + '\n',
      'bob.jsonl': line('B1', 'from bob', '2026-03-01T00:00:00.000Z', { tags: ['ci'] }) + '\n',
    });
    const r = readTeamDir(root);
    expect(r.warnings).toEqual([]);
    expect(r.items.map((i) => [i.id, i.uid, i.author, i.content])).toEqual([
      [-1, 'B1', 'bob', 'from bob'],
      [-2, 'A2', 'alice', 'second'],
      [-3, 'A1', 'alice', 'new text'],
    ]);
    expect(r.items[0]!.tags).toEqual(['ci']);
    // Whatever scope a line names, it is not kept: the items apply where the file is.
    expect(r.items[0]!.scope).toBeUndefined();
  });

  it('broken, torn, oversized and unnamed lines are skipped with one warning each; nothing throws', () => {
    const long = line('L1', 'x'.repeat(TEAM_LINE_MAX_BYTES));
    const root = project({
      'alice.jsonl': ['{"uid":', '[1]', JSON.stringify({ uid: 'u', kind: 'nope', content: 'c' }), long, line('OK', 'fine'), '{"torn'].join(
        '\n',
      ),
      'Not A Name.jsonl': line('X', 'x') + '\n',
      'notes.txt': 'ignored',
    });
    const r = readTeamDir(root);
    expect(r.items.map((i) => i.content)).toEqual(['fine']);
    expect(r.warnings).toEqual([
      '.aish/memory/Not A Name.jsonl: not a name aish writes (lowercase a-z 0-9 . _ -) — skipped',
      '.aish/memory/alice.jsonl:1: not valid JSON (skipped)',
      '.aish/memory/alice.jsonl:2: not a JSON object (skipped)',
      '.aish/memory/alice.jsonl:3: unknown kind "nope" (skipped)',
      '.aish/memory/alice.jsonl:4: longer than 64 KiB (skipped)',
      '.aish/memory/alice.jsonl:6: not valid JSON (skipped)',
    ]);
  });

  it('a file over the cap and a directory named like a file are skipped; a missing directory is no items', () => {
    const root = project({ 'big.jsonl': (line('B', 'b') + '\n').repeat(Math.ceil(TEAM_FILE_MAX_BYTES / 80) + 10) });
    mkdirSync(join(teamDir(root), 'dir.jsonl'));
    const r = readTeamDir(root);
    expect(r.items).toEqual([]);
    expect(r.warnings.join('\n')).toMatch(/big\.jsonl: \d+ bytes, over the 4 MiB/);
    expect(r.warnings).toContain('.aish/memory/dir.jsonl: not a regular file (skipped)');
    expect(readTeamDir(tmpDir())).toEqual({ items: [], warnings: [] });
  });

  it('a secret in a teammate’s line is redacted on the way in', () => {
    const root = project({ 'alice.jsonl': line('S', 'token ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 for ci') + '\n' });
    const [it] = readTeamDir(root).items;
    expect(it!.content).not.toContain('ghp_');
    expect(it!.content).toContain('[redacted]');
  });

  it('authorOfFile accepts only the names share writes', () => {
    expect(authorOfFile('alice.jsonl')).toBe('alice');
    expect(authorOfFile('j.doe-2_x.jsonl')).toBe('j.doe-2_x');
    expect(authorOfFile('.hidden.jsonl')).toBeUndefined();
    expect(authorOfFile('Alice.jsonl')).toBeUndefined();
    expect(authorOfFile('alice.json')).toBeUndefined();
  });

  it('a symbolic link is never read: a file linked elsewhere, or .aish/memory or .aish itself a link — each named once', () => {
    // Elsewhere: the user's own memory (team-format lines, to show it is the link that is refused).
    const own = tmpDir();
    writeFileSync(join(own, 'memory.jsonl'), line('P1', 'my private note') + '\n');
    const root = project({ 'alice.jsonl': line('A1', 'from alice') + '\n' });
    symlinkSync(join(own, 'memory.jsonl'), join(teamDir(root), 'bob.jsonl'));
    symlinkSync(join(teamDir(root), 'alice.jsonl'), join(teamDir(root), 'carol.jsonl'));
    const r = readTeamDir(root);
    expect(r.items.map((i) => [i.author, i.content])).toEqual([['alice', 'from alice']]);
    expect(r.warnings).toEqual([
      '.aish/memory/bob.jsonl: a symbolic link — skipped (team files are read only as regular files in the project)',
      '.aish/memory/carol.jsonl: a symbolic link — skipped (team files are read only as regular files in the project)',
    ]);

    const dirLink = tmpDir();
    mkdirSync(join(dirLink, '.aish'));
    symlinkSync(own, join(dirLink, '.aish', 'memory'));
    writeFileSync(join(own, 'bob.jsonl'), line('P2', 'also private') + '\n');
    const d = readTeamDir(dirLink);
    expect(d.items).toEqual([]);
    expect(d.warnings).toEqual([
      ".aish/memory: a symbolic link — no team files read (they are read only from the project's own .aish/memory directory)",
    ]);

    const aishLink = tmpDir();
    mkdirSync(join(own, 'memory'));
    writeFileSync(join(own, 'memory', 'bob.jsonl'), line('P3', 'private again') + '\n');
    symlinkSync(own, join(aishLink, '.aish'));
    const a = readTeamDir(aishLink);
    expect(a.items).toEqual([]);
    expect(a.warnings).toHaveLength(1);
    expect(a.warnings[0]).toMatch(/^\.aish: a symbolic link/);
  });
});
