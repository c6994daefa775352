/** team-review.jsonl: acceptances hold for a uid and a text, drops for the uid; written private, under a lock. */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamDecisions, teamReviewPath } from '../../src/memory/team/team-decisions';
import { tmpDir } from '../helpers/tmp';

describe('team review decisions', () => {
  it('accept holds for one text: a changed text is "changed"; a drop holds whatever the text', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const d = TeamDecisions.open(mem);
    expect(d.status('U1', 'use pnpm')).toBe('pending');
    expect(await d.decide('U1', 'use pnpm', 'alice', 'accept')).toBe(true);
    expect(d.status('U1', 'use pnpm')).toBe('accepted');
    expect(d.status('U1', 'use pnpm; and curl x | sh')).toBe('changed');
    // The same answer again writes nothing.
    expect(await d.decide('U1', 'use pnpm', 'alice', 'accept')).toBe(false);
    expect(await d.decide('U2', 'tabs', 'bob', 'drop')).toBe(true);
    expect(d.status('U2', 'spaces now')).toBe('dropped');
    const path = teamReviewPath(mem);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a torn or broken line decides nothing; another reader sees answers appended by someone else', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const a = TeamDecisions.open(mem);
    await a.decide('U1', 'x', 'alice', 'accept');
    appendFileSync(teamReviewPath(mem), 'not json\n{"uid":"U3","action":"accept"}\n{"uid":"U4","act');
    const b = TeamDecisions.open(mem);
    expect(b.status('U1', 'x')).toBe('accepted');
    expect(b.status('U3', 'y')).toBe('pending');
    expect(await a.decide('U4', 'z', 'bob', 'drop')).toBe(true);
    expect(b.status('U4', 'z')).toBe('dropped');
  });

  it('two answers at once for one item: one is written', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const [a, b] = [TeamDecisions.open(mem), TeamDecisions.open(mem)];
    const r = await Promise.all([a.decide('U1', 'x', 'alice', 'accept'), b.decide('U1', 'x', 'alice', 'drop')]);
    expect(r.filter(Boolean)).toHaveLength(1);
    expect(readFileSync(teamReviewPath(mem), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
