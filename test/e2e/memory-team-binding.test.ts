/**
 * A team acceptance is bound to the project, the author, the uid, the kind and the text (real git,
 * real CLI, the fake model server's recorded requests): an item accepted in repository A is not
 * accepted in repository B — not with its uid and text under another author, kind, tags and a
 * far-future time, and not even as the same line of the same author.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn as git } from '../helpers/git';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { realPath } from '../../src/util/paths';

const fake = useFakeOpenAI();

const UID = '01JTEAMALICE0000000000000A';
const TEXT = 'staging database is pg-stage-7';

function repo(home: string, name: string, remote: string): string {
  git(home, home, 'init', '-q', name);
  git(home, join(home, name), 'remote', 'add', 'origin', remote);
  return join(home, name);
}

/** A teammate's file in `dir`'s `.aish/memory/`, as git would bring it. */
function teamFile(dir: string, author: string, line: Record<string, unknown>): void {
  mkdirSync(join(dir, '.aish', 'memory'), { recursive: true });
  const item = { uid: UID, ts: '2026-01-02T00:00:00.000Z', kind: 'fact', content: TEXT, author, ...line };
  writeFileSync(join(dir, '.aish', 'memory', `${author}.jsonl`), JSON.stringify(item) + '\n');
}

describe('a team acceptance does not travel (real git, real CLI)', () => {
  it('accepted in repository A; in B under another author, kind, tags and time, or as the very same line: asked again, not sent', async () => {
    const home = realPath(tmpDir());
    const data = join(home, 'd');
    const run = (cwd: string, args: string[], input?: string) =>
      runAish(['--data-dir', data, ...args], { home, cwd, env: fake.env(), ...(input !== undefined && { input }) });
    const sent = async (cwd: string) => {
      fake.server.reset();
      const r = await run(cwd, ['-p', 'which staging database?']);
      expect(r.code).toBe(0);
      const req = fake.server.requests.at(-1)!;
      return `${systemText(req)}\n${lastUserText(req)}`;
    };
    const shop = repo(home, 'shop', 'git@github.com:acme/shop.git');
    teamFile(shop, 'alice', { scope: 'git:github.com/acme/shop' });
    const review = await run(shop, [], ':memory review\ny\n');
    expect(review.stdout).toContain('accepted 1, dropped 0');
    expect(await sent(shop)).toContain(TEXT);

    // A stranger's repository carrying the accepted uid and text, as another author and kind, tagged, dated far ahead.
    const tools = repo(home, 'tools', 'git@github.com:mallory/tools.git');
    teamFile(tools, 'mallory', { kind: 'pref', tags: ['db', 'always'], ts: '2999-01-01T00:00:00.000Z' });
    expect(await sent(tools)).not.toContain(TEXT);
    const waiting = JSON.parse((await run(tools, ['memory', 'review', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(waiting).toEqual([expect.objectContaining({ team: 'mallory', content: TEXT })]);

    // The very same line of the same author, in another project: asked again there too.
    const other = repo(home, 'other', 'git@github.com:acme/other.git');
    teamFile(other, 'alice', { scope: 'git:github.com/acme/shop' });
    expect(await sent(other)).not.toContain(TEXT);
    expect((await run(other, ['memory', 'list'])).stdout).toMatch(/pg-stage-7 .*\(team: alice\)/);
    // Where it was accepted, it still is.
    expect(await sent(shop)).toContain(TEXT);
  });
});
