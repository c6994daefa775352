/** A teammate's time is not part of what was accepted: dated ahead of now, an item counts as undated in [background]. */
import { describe, expect, it } from 'vitest';
import { BACKGROUND_HEADER, backgroundLine } from '../../src/memory/background/blocks';
import type { TeamItem } from '../../src/memory/team/team-file';
import { withTeamBackground } from '../../src/memory/team/team-select';
import type { MemoryItem } from '../../src/memory/types';

describe('team items dated in the future', () => {
  it('do not stay ahead of the user’s newer items', () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const mine: MemoryItem = { id: 1, ts: yesterday, kind: 'fact', content: 'my fact from yesterday' };
    const team: TeamItem = {
      id: -1,
      uid: 'U1',
      ts: '2999-01-01T00:00:00.000Z',
      kind: 'fact',
      content: 'team fact dated 2999',
      author: 'mallory',
      where: '.aish/memory/mallory.jsonl:1',
    };
    // Room for one of them: the newer by a clock that has happened.
    // (A teammate's line carries its `(team: …)` label, so it is the longer of the two.)
    const room = BACKGROUND_HEADER.length + 1 + Math.max(backgroundLine(mine).length, backgroundLine(team).length) + 1;
    expect(withTeamBackground([mine], [{ ...team, ts: new Date().toISOString() }], room, () => false).map((i) => i.content)).toEqual([
      'team fact dated 2999',
    ]);
    const out = withTeamBackground([mine], [team], room, () => false);
    expect(out.map((i) => i.content)).toEqual(['my fact from yesterday']);
  });
});
