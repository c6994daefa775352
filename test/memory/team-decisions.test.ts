/** team-review.jsonl: acceptances hold for a uid and a text, drops for the uid; written private, under a lock. */
import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TeamDecisions, teamReviewPath, type TeamBinding } from '../../src/memory/team/team-decisions';
import { tmpDir } from '../helpers/tmp';

/** A fact by `author` in github.com/acme/shop, unless `o` says otherwise. */
const item = (uid: string, content: string, author = 'alice', o: Partial<TeamBinding> = {}): TeamBinding => ({
  project: 'git:github.com/acme/shop',
  uid,
  author,
  kind: 'fact',
  content,
  ...o,
});

describe('team review decisions', () => {
  it('an acceptance is bound to the project, author, uid, kind, text, tags and search words: any of them different asks again', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const d = TeamDecisions.open(mem);
    const accepted = item('U1', 'staging database is pg-stage-7', 'alice', { tags: ['db', 'ops'] });
    expect(await d.decide(accepted, 'accept')).toBe(true);
    expect(d.status(accepted)).toBe('accepted');
    expect(d.status({ ...accepted, tags: ['ops', 'db'] })).toBe('accepted');
    for (const other of [
      { project: 'git:github.com/mallory/tools' },
      { project: 'id:shop' },
      { author: 'mallory' },
      { kind: 'pref' },
      { content: 'staging database is pg-stage-7 ' },
      { tags: ['db'] },
      { keys: ['deploy'] },
    ])
      expect(d.status({ ...accepted, ...other }), JSON.stringify(other)).toBe('changed');
    expect(d.status({ ...accepted, uid: 'U2' })).toBe('pending');
  });

  it('an acceptance written before the binding (uid and text only) accepts nothing: asked again once', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    appendFileSync(teamReviewPath(mem), '{"ts":"2026-01-01T00:00:00Z","uid":"U1","sha":"abc","action":"accept","author":"alice"}\n');
    const d = TeamDecisions.open(mem);
    expect(d.status(item('U1', 'use pnpm'))).toBe('changed');
    expect(await d.decide(item('U1', 'use pnpm'), 'accept')).toBe(true);
    expect(d.status(item('U1', 'use pnpm'))).toBe('accepted');
  });

  it('accept holds for one text: a changed text is "changed"; a drop holds whatever the text', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const d = TeamDecisions.open(mem);
    expect(d.status(item('U1', 'use pnpm'))).toBe('pending');
    expect(await d.decide(item('U1', 'use pnpm', 'alice'), 'accept')).toBe(true);
    expect(d.status(item('U1', 'use pnpm'))).toBe('accepted');
    expect(d.status(item('U1', 'use pnpm; and curl x | sh'))).toBe('changed');
    // The same answer again writes nothing.
    expect(await d.decide(item('U1', 'use pnpm', 'alice'), 'accept')).toBe(false);
    expect(await d.decide(item('U2', 'tabs', 'bob'), 'drop')).toBe(true);
    expect(d.status(item('U2', 'spaces now'))).toBe('dropped');
    const path = teamReviewPath(mem);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('a torn or broken line decides nothing; another reader sees answers appended by someone else', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const a = TeamDecisions.open(mem);
    await a.decide(item('U1', 'x', 'alice'), 'accept');
    appendFileSync(teamReviewPath(mem), 'not json\n{"uid":"U3","action":"accept"}\n{"uid":"U4","act');
    const b = TeamDecisions.open(mem);
    expect(b.status(item('U1', 'x'))).toBe('accepted');
    expect(b.status(item('U3', 'y'))).toBe('pending');
    expect(await a.decide(item('U4', 'z', 'bob'), 'drop')).toBe(true);
    expect(b.status(item('U4', 'z'))).toBe('dropped');
  });

  it('two answers at once for one item: one is written', async () => {
    const mem = join(tmpDir(), 'memory.jsonl');
    const [a, b] = [TeamDecisions.open(mem), TeamDecisions.open(mem)];
    const r = await Promise.all([a.decide(item('U1', 'x', 'alice'), 'accept'), b.decide(item('U1', 'x', 'alice'), 'drop')]);
    expect(r.filter(Boolean)).toHaveLength(1);
    expect(readFileSync(teamReviewPath(mem), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
