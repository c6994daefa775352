/**
 * Project items by identity, with real git: two clones of one bare repository at different paths,
 * one with an ssh-style and one with an https-style remote URL, share their project items; a third
 * repository does not see them. Nothing fetches: the remote URL text is all that is read.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn } from '../helpers/git';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { realPath } from '../../src/util/paths';

function git(home: string, cwd: string, ...args: string[]): string {
  return gitIn(home, cwd, '-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args);
}

interface Plan {
  background: Array<{ id: number }>;
  left_out: Array<{ id: number; reason: string }>;
}

describe('project items by identity (real git)', () => {
  it('an item added in one clone applies in another clone of the same remote (ssh vs https) once confirmed there, never in another project', async () => {
    const home = realPath(tmpDir());
    const data = join(home, 'd');
    git(home, home, 'init', '-q', '--bare', 'shop.git');
    git(home, home, 'clone', '-q', join(home, 'shop.git'), 'laptop/shop');
    git(home, home, 'clone', '-q', join(home, 'shop.git'), 'server/srv/shop-clone');
    git(home, join(home, 'laptop/shop'), 'remote', 'set-url', 'origin', 'git@example.com:acme/shop.git');
    git(home, join(home, 'server/srv/shop-clone'), 'config', 'remote.origin.url', 'https://user:tok3n@EXAMPLE.com/acme/shop/');
    git(home, home, 'init', '-q', 'other');
    git(home, join(home, 'other'), 'remote', 'add', 'origin', 'https://example.com/acme/other.git');
    mkdirSync(join(home, 'laptop/shop/src'));
    const run = (cwd: string, ...args: string[]) => runAish(['--data-dir', data, 'memory', ...args], { home, cwd });

    const add = await run(join(home, 'laptop/shop/src'), 'add', '--project', 'fact', 'shop deploys with make ship');
    expect(add.stderr).toBe('');
    expect(add.stdout).toBe('added 1 (fact) for git:example.com/acme/shop\n');
    const stored = readFileSync(join(data, 'memory.jsonl'), 'utf8');
    expect(JSON.parse(stored.trim().split('\n').at(-1)!)).toMatchObject({ id: 1, scope: 'git:example.com/acme/shop' });
    expect(stored).not.toContain('tok3n');
    expect((await run(home, 'add', 'fact', 'global: prefers short answers')).code).toBe(0);

    const server = join(home, 'server/srv/shop-clone');
    // Another checkout naming the same remote: a suggestion until the user confirms it there.
    expect((await run(server, 'list', '--here')).stdout).not.toContain('shop deploys with make ship');
    const before = JSON.parse((await run(server, 'plan', '--json', 'how does it deploy?')).stdout) as Plan;
    expect(before.background.map((b) => b.id)).toEqual([2]);
    const trusted = await run(server, 'trust-project');
    expect(trusted.stdout).toBe('memory: ~/server/srv/shop-clone is git:example.com/acme/shop — its project items apply here\n');
    expect((await run(server, 'list', '--here')).stdout).toContain('shop deploys with make ship');
    const plan = JSON.parse((await run(server, 'plan', '--json', 'how does it deploy?')).stdout) as Plan;
    expect(plan.background.map((b) => b.id).sort()).toEqual([1, 2]);

    const elsewhere = JSON.parse((await run(join(home, 'other'), 'plan', '--json', 'how does it deploy?')).stdout) as Plan;
    expect(elsewhere.background.map((b) => b.id)).toEqual([2]);
    expect(elsewhere.left_out).toContainEqual({ id: 1, reason: 'scope' });
    const otherList = (await run(join(home, 'other'), 'list', '--here')).stdout;
    expect(otherList).toContain('prefers short answers');
    expect(otherList).not.toContain('make ship');
    expect((await run(home, 'list', '--here')).stdout).not.toContain('make ship');
  });

  it('a linked worktree and a --separate-git-dir clone have their remote’s identity; an old path scope still applies inside its repository and in another clone', async () => {
    const home = realPath(tmpDir());
    const data = join(home, 'd');
    git(home, home, 'init', '-q', 'shop');
    const shop = join(home, 'shop');
    git(home, shop, 'remote', 'add', 'origin', 'ssh://git@example.com/acme/shop.git');
    writeFileSync(join(shop, 'README'), 'x\n');
    git(home, shop, 'add', 'README');
    git(home, shop, 'commit', '-qm', 'first');
    git(home, shop, 'worktree', 'add', '-q', join(home, 'feature'));
    mkdirSync(join(home, 'gitdirs'));
    git(home, home, 'init', '-q', '--separate-git-dir', join(home, 'gitdirs', 'sep.git'), 'sep');
    git(home, join(home, 'sep'), 'remote', 'add', 'origin', 'example.com:acme/shop');
    // An item from before identities: scoped to the first repository by path.
    mkdirSync(data, { recursive: true });
    writeFileSync(
      join(data, 'memory.jsonl'),
      JSON.stringify({ id: 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'old path-scoped note', scope: shop }) + '\n',
    );
    const run = (cwd: string, ...args: string[]) => runAish(['--data-dir', data, 'memory', ...args], { home, cwd });

    const wt = await run(join(home, 'feature'), 'add', '--project', 'fact', 'from the worktree');
    expect(wt.stdout).toBe('added 2 (fact) for git:example.com/acme/shop\n');
    const sep = await run(join(home, 'sep'), 'add', '--project', 'fact', 'from the separate git dir');
    expect(sep.stdout).toBe('added 3 (fact) for git:example.com/acme/shop\n');
    // The first repository: its old path-scoped note applies by path; the identity's items once confirmed there.
    expect((await run(shop, 'list', '--here')).stdout).not.toContain('from the worktree');
    expect((await run(shop, 'trust-project')).code).toBe(0);
    for (const dir of [shop, join(home, 'feature'), join(home, 'sep')]) {
      const list = (await run(dir, 'list', '--here')).stdout;
      for (const text of ['old path-scoped note', 'from the worktree', 'from the separate git dir']) expect(list).toContain(text);
    }
    const outside = (await run(home, 'list', '--here')).stdout;
    expect(outside).not.toContain('note');
    expect(outside).not.toContain('from the');
  });
});
