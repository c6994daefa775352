/** What a session takes from the team files: by memory.team, per project, the user's own file aside. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig, type TeamMode } from '../../src/config/types';
import { recallBlock } from '../../src/memory/background/blocks';
import { MemorySession } from '../../src/memory/session';
import { TeamMemory } from '../../src/memory/team/team-memory';
import { withTeamBackground, withTeamRecall } from '../../src/memory/team/team-select';
import type { MemoryItem } from '../../src/memory/types';
import { realPath } from '../../src/util/paths';
import { tmpDir } from '../helpers/tmp';

const config = (team: TeamMode, name = 'me'): AishConfig =>
  ({ ...DEFAULT_CONFIG, memory: { ...DEFAULT_CONFIG.memory, team, sync: { name } } }) as unknown as AishConfig;

/** A project by `.aish/project-id`, with team files. */
function project(id: string, files: Record<string, object[]>): string {
  const root = realPath(tmpDir());
  mkdirSync(join(root, '.aish', 'memory'), { recursive: true });
  writeFileSync(join(root, '.aish', 'project-id'), id + '\n');
  for (const [name, items] of Object.entries(files))
    writeFileSync(join(root, '.aish', 'memory', name), items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  return root;
}

const rec = (uid: string, content: string, kind = 'fact') => ({ uid, ts: '2026-01-01T00:00:00.000Z', kind, content });

describe('TeamMemory', () => {
  it('review: only accepted items; the user’s own file is theirs; other projects see nothing', async () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'alpha'), rec('B', 'beta')], 'me.jsonl': [rec('M', 'mine')] });
    const other = project('other', {});
    const team = new TeamMemory(config('review'), join(tmpDir(), 'memory.jsonl'));
    mkdirSync(join(root, 'src'));
    const sub = join(root, 'src');
    expect(team.accepted(sub)).toEqual([]);
    expect(team.pending(sub).map((e) => e.item.uid)).toEqual(['B', 'A']);
    expect(team.view(sub).entries.find((e) => e.item.uid === 'M')!.status).toBe('yours');
    await team.decide(team.pending(sub).find((e) => e.item.uid === 'A')!.item, 'accept');
    expect(team.accepted(sub).map((i) => [i.uid, i.author])).toEqual([['A', 'alice']]);
    expect(team.view(other).entries).toEqual([]);
    expect(team.accepted(tmpDir())).toEqual([]);
  });

  it('trust: every teammate’s item; off: none, and the directory is not looked at', () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'alpha')] });
    expect(new TeamMemory(config('trust'), join(tmpDir(), 'm.jsonl')).accepted(root).map((i) => i.uid)).toEqual(['A']);
    const off = new TeamMemory(config('off'), join(tmpDir(), 'm.jsonl'));
    expect(off.view(root)).toEqual({ root: null, entries: [], warnings: [] });
  });

  it('a file changed on disk is read again', () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'alpha')] });
    const team = new TeamMemory(config('trust'), join(tmpDir(), 'm.jsonl'));
    expect(team.accepted(root).map((i) => i.content)).toEqual(['alpha']);
    writeFileSync(join(root, '.aish', 'memory', 'alice.jsonl'), JSON.stringify(rec('A', 'alpha, longer now')) + '\n');
    expect(team.accepted(root).map((i) => i.content)).toEqual(['alpha, longer now']);
  });
});

describe('team items in what the model sees', () => {
  const local = (id: number, content: string, ts: string, kind: MemoryItem['kind'] = 'fact'): MemoryItem => ({ id, ts, kind, content });

  it('[background]: merged by the same rule (pinned, pref, newest), within the budget', () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'team pref', 'pref'), rec('B', 'x'.repeat(300))] });
    const team = new TeamMemory(config('trust'), join(tmpDir(), 'm.jsonl')).accepted(root);
    const chosen = [local(1, 'pinned old', '2020-01-01T00:00:00.000Z'), local(2, 'newest fact', '2027-01-01T00:00:00.000Z')];
    const out = withTeamBackground(chosen, team, 260, (it) => it.id === 1);
    expect(out.map((i) => i.content)).toEqual(['pinned old', 'team pref', 'newest fact']);
    expect(withTeamBackground(chosen, [], 260, () => false)).toBe(chosen);
  });

  it('[recall]: a relevant team item is ranked in and labelled (team: alice), not #id', () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'the staging database is pg-stage-7'), rec('B', 'unrelated words')] });
    const team = new TeamMemory(config('trust'), join(tmpDir(), 'm.jsonl')).accepted(root);
    const o = { now: Date.now(), maxChars: 1200, minScore: 0.5, exclude: () => false };
    const hits = withTeamRecall([], team, 50, [{ text: 'which staging database?', weight: 1 }], o);
    expect(hits.map((h) => h.item.content)).toEqual(['the staging database is pg-stage-7']);
    expect(recallBlock(hits.map((h) => h.item))).toContain('- (team: alice) (fact) the staging database is pg-stage-7');
    expect(withTeamRecall([], team, 50, [{ text: 'nothing matching', weight: 1 }], o)).toEqual([]);
  });
});

describe('a MemorySession with team items', () => {
  it('counts waiting team items with the inbox, injects accepted ones here only, and follows :cd', async () => {
    const root = project('shop', { 'alice.jsonl': [rec('A', 'shop uses pnpm workspaces')] });
    const elsewhere = realPath(tmpDir());
    let cwd = root;
    const notices: string[] = [];
    const s = new MemorySession(
      config('review'),
      join(tmpDir(), 'memory.jsonl'),
      { cwd: () => cwd },
      {
        notice: (_k, t) => notices.push(t),
        changed: () => {},
      },
    );
    await s.ready();
    expect(s.inboxCount()).toBe(1);
    expect(s.injected).toEqual([]);
    await s.team().decide(s.team().pending(root)[0]!.item, 'accept');
    s.reselect();
    expect(s.inboxCount()).toBe(0);
    expect(s.injected.map((i) => i.content)).toEqual(['shop uses pnpm workspaces']);
    cwd = elsewhere;
    s.dirChanged();
    expect(s.injected).toEqual([]);
    expect(notices).toEqual([]);
    s.close();
  });
});
