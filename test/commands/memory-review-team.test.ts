/** The team step of :memory review: accept? [y/n/s] per waiting team item, answers kept in team-review.jsonl. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewTeam } from '../../src/commands/memory-review-team';
import { DEFAULT_CONFIG, type AishConfig, type TeamMode } from '../../src/config/types';
import { TeamMemory } from '../../src/memory/team/team-memory';
import { realPath } from '../../src/util/paths';
import { tmpDir } from '../helpers/tmp';

const config = (team: TeamMode): AishConfig =>
  ({ ...DEFAULT_CONFIG, memory: { ...DEFAULT_CONFIG.memory, team, sync: { name: 'me' } } }) as unknown as AishConfig;

function project(contents: string[]): string {
  const root = realPath(tmpDir());
  mkdirSync(join(root, '.aish', 'memory'), { recursive: true });
  writeFileSync(join(root, '.aish', 'project-id'), 'shop\n');
  const lines = contents.map((c, i) =>
    JSON.stringify({ uid: `U${i + 1}`, ts: `2026-01-0${i + 1}T00:00:00.000Z`, kind: 'fact', content: c }),
  );
  writeFileSync(join(root, '.aish', 'memory', 'alice.jsonl'), lines.join('\n') + '\n');
  return root;
}

function scripted(answers: Array<string | null>) {
  const printed: string[] = [];
  return {
    printed,
    io: { ask: async () => (answers.length ? answers.shift()! : null), print: (l: string) => printed.push(l) },
  };
}

describe('reviewTeam', () => {
  it('y accepts, n drops, anything else skips, end of input stops; newest first', async () => {
    const root = project(['one', 'two', 'three', 'four']);
    const team = new TeamMemory(config('review'), join(tmpDir(), 'memory.jsonl'));
    const { io, printed } = scripted(['y', 'n', 's']);
    const r = await reviewTeam(team, root, io);
    expect(printed[0]).toBe('[team] 1/4 (fact) four  — (team: alice), .aish/memory/alice.jsonl:4');
    expect(r).toMatchObject({ accepted: 1, dropped: 1, skipped: 1 });
    expect(r!.summary).toBe('[aish] team review: accepted 1, dropped 1, skipped 1; 2 still waiting');
    expect(team.accepted(root).map((i) => i.content)).toEqual(['four']);
    expect(team.pending(root).map((e) => e.item.content)).toEqual(['two', 'one']);
  });

  it('nothing waiting, "trust" or "off": no step at all', async () => {
    const root = project(['one']);
    for (const mode of ['trust', 'off'] as const) {
      const { io, printed } = scripted(['y']);
      expect(await reviewTeam(new TeamMemory(config(mode), join(tmpDir(), 'm.jsonl')), root, io)).toBeNull();
      expect(printed).toEqual([]);
    }
    const { io } = scripted([]);
    expect(await reviewTeam(new TeamMemory(config('review'), join(tmpDir(), 'm.jsonl')), tmpDir(), io)).toBeNull();
  });
});
