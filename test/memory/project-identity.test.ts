/** Finding the repository a directory is in (nested, worktree, separate git dir), its remote, and the project's identity. */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { findRepository, remotesIn } from '../../src/memory/project/git-repo';
import { forgetProjectIdentities, projectIdentity } from '../../src/memory/project/project-identity';
import { projectScope, scopeFilter } from '../../src/memory/project/project';
import { trustProjectAt } from '../../src/memory/project/project-confirm';
import { isScope } from '../../src/memory/scope-format';
import { parseLines } from '../../src/memory/log/parse';
import { exportMarkdown, parseImport } from '../../src/memory/porting/transfer';
import { realPath } from '../../src/util/paths';
import { tmpDir } from '../helpers/tmp';

/** A repository laid out as `git init` leaves it, with `config` text. */
function gitDir(dir: string, config: string): string {
  mkdirSync(join(dir, 'refs'), { recursive: true });
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'config'), config);
  return dir;
}

const origin = (url: string) =>
  `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;

beforeEach(() => forgetProjectIdentities());

describe('finding the repository', () => {
  it('from a nested directory, the nearest .git upwards', () => {
    const home = realPath(tmpDir());
    gitDir(join(home, 'shop', '.git'), origin('git@example.com:acme/shop.git'));
    mkdirSync(join(home, 'shop', 'src', 'deep', 'er'), { recursive: true });
    expect(findRepository(join(home, 'shop', 'src', 'deep', 'er'))).toEqual({
      top: join(home, 'shop'),
      commonDir: join(home, 'shop', '.git'),
    });
    expect(projectScope(join(home, 'shop', 'src', 'deep', 'er'))).toBe('git:example.com/acme/shop');
    expect(findRepository(home)).toBeUndefined();
  });

  it('a linked worktree: .git is a file naming .git/worktrees/NAME, whose commondir leads to the config', () => {
    const home = realPath(tmpDir());
    const main = gitDir(join(home, 'shop', '.git'), origin('https://example.com/acme/shop'));
    const wtGit = join(main, 'worktrees', 'feature');
    mkdirSync(wtGit, { recursive: true });
    writeFileSync(join(wtGit, 'commondir'), '../..\n');
    writeFileSync(join(wtGit, 'HEAD'), 'ref: refs/heads/feature\n');
    mkdirSync(join(home, 'feature', 'lib'), { recursive: true });
    writeFileSync(join(home, 'feature', '.git'), `gitdir: ${wtGit}\n`);
    expect(findRepository(join(home, 'feature', 'lib'))).toEqual({ top: join(home, 'feature'), commonDir: main });
    expect(projectIdentity(join(home, 'feature', 'lib'))).toEqual({
      root: join(home, 'feature'),
      found: true,
      scopes: ['git:example.com/acme/shop', join(home, 'feature')],
    });
  });

  it('a separate git dir (relative gitdir: line) and a submodule', async () => {
    const home = realPath(tmpDir());
    gitDir(join(home, 'store', 'shop.git'), origin('ssh://git@example.com:22/acme/shop.git'));
    mkdirSync(join(home, 'work', 'shop'), { recursive: true });
    writeFileSync(join(home, 'work', 'shop', '.git'), 'gitdir: ../../store/shop.git\n');
    expect(projectScope(join(home, 'work', 'shop'))).toBe('git:example.com/acme/shop');
    // A submodule is its own project, with its own remote.
    gitDir(join(home, 'work', 'shop', '.git-modules', 'lib'), origin('https://example.com/acme/lib.git'));
    mkdirSync(join(home, 'work', 'shop', 'vendor', 'lib'), { recursive: true });
    writeFileSync(join(home, 'work', 'shop', 'vendor', 'lib', '.git'), `gitdir: ${join(home, 'work', 'shop', '.git-modules', 'lib')}`);
    expect(projectScope(join(home, 'work', 'shop', 'vendor', 'lib'))).toBe('git:example.com/acme/lib');
    // The outer project's items apply inside it (as they do by path); the submodule's not outside it.
    const items = [{ scope: 'git:example.com/acme/shop' }, { scope: 'git:example.com/acme/lib' }];
    // Confirming inside the submodule confirms both checkouts: the submodule's and the one around it.
    await trustProjectAt(join(home, 'd', 'memory.jsonl'), join(home, 'work', 'shop', 'vendor', 'lib'));
    expect(items.map(scopeFilter(join(home, 'work', 'shop', 'vendor', 'lib')))).toEqual([true, true]);
    expect(items.map(scopeFilter(join(home, 'work', 'shop', 'vendor')))).toEqual([true, false]);
  });

  it('no remote: the path, as before; an unreadable .git file: still the root, by path', () => {
    const home = realPath(tmpDir());
    gitDir(join(home, 'a', '.git'), '[core]\n\tbare = false\n');
    expect(projectScope(join(home, 'a'))).toBe(join(home, 'a'));
    mkdirSync(join(home, 'b', 'sub'), { recursive: true });
    writeFileSync(join(home, 'b', '.git'), 'not a gitdir line\n');
    expect(projectScope(join(home, 'b', 'sub'))).toBe(join(home, 'b'));
    mkdirSync(join(home, 'plain', 'x'), { recursive: true });
    expect(projectScope(join(home, 'plain', 'x'))).toBe(join(home, 'plain', 'x'));
  });

  it('origin first, else the first remote; a local remote gives its path, relative ones from the work tree', () => {
    const home = realPath(tmpDir());
    gitDir(
      join(home, 'a', '.git'),
      '[remote "upstream"]\n\turl = https://example.com/up/shop\n[remote "origin"]\n\turl = https://example.com/me/shop\n',
    );
    gitDir(
      join(home, 'b', '.git'),
      '[remote "upstream"]\n\turl = https://example.com/up/shop\n[remote "fork"]\n\turl = https://example.com/me/shop\n',
    );
    gitDir(join(home, 'c', '.git'), '[remote "origin"]\n\turl = ../bare/shop.git\n');
    expect(projectScope(join(home, 'a'))).toBe('git:example.com/me/shop');
    expect(projectScope(join(home, 'b'))).toBe('git:example.com/up/shop');
    expect(projectScope(join(home, 'c'))).toBe(`git:${join(home, 'bare', 'shop')}`);
  });
});

describe('hostile checkouts', () => {
  it('a .git, config or project-id that is a device is not read (no hang, no endless read)', () => {
    const home = realPath(tmpDir());
    mkdirSync(join(home, 'a'));
    symlinkSync('/dev/zero', join(home, 'a', '.git'));
    expect(projectScope(join(home, 'a'))).toBe(join(home, 'a'));
    mkdirSync(join(home, 'b', '.git'), { recursive: true });
    symlinkSync('/dev/zero', join(home, 'b', '.git', 'config'));
    mkdirSync(join(home, 'b', '.aish'));
    symlinkSync('/dev/zero', join(home, 'b', '.aish', 'project-id'));
    expect(projectScope(join(home, 'b'))).toBe(join(home, 'b'));
    mkdirSync(join(home, 'c'));
    writeFileSync(join(home, 'c', '.git'), 'gitdir: /dev\n');
    expect(projectScope(join(home, 'c'))).toBe(join(home, 'c'));
  });
});

describe('.aish/project-id', () => {
  it('names a project without a remote; an invalid one is ignored (the path rule applies)', () => {
    const home = realPath(tmpDir());
    mkdirSync(join(home, 'p', '.aish'), { recursive: true });
    mkdirSync(join(home, 'p', 'src'));
    writeFileSync(join(home, 'p', '.aish', 'project-id'), 'acme-shop\nignored second line\n');
    expect(projectIdentity(join(home, 'p', 'src'))).toEqual({
      root: join(home, 'p'),
      found: true,
      scopes: ['id:acme-shop', join(home, 'p')],
    });
    mkdirSync(join(home, 'q', '.aish'), { recursive: true });
    writeFileSync(join(home, 'q', '.aish', 'project-id'), 'has spaces; rm -rf /\n');
    expect(projectScope(join(home, 'q'))).toBe(join(home, 'q'));
  });

  it('a remote wins over the file; both name the project, once the checkout is confirmed', async () => {
    const home = realPath(tmpDir());
    gitDir(join(home, 'p', '.git'), origin('git@example.com:acme/shop.git'));
    mkdirSync(join(home, 'p', '.aish'));
    writeFileSync(join(home, 'p', '.aish', 'project-id'), 'acme-shop');
    expect(projectIdentity(join(home, 'p')).scopes).toEqual(['git:example.com/acme/shop', 'id:acme-shop', join(home, 'p')]);
    const items = [{ scope: 'id:acme-shop' }, { scope: 'git:example.com/acme/shop' }, { scope: 'id:other' }];
    // The names only suggest the project: nothing applies until the user confirms this checkout.
    expect(items.map(scopeFilter(join(home, 'p')))).toEqual([false, false, false]);
    await trustProjectAt(join(home, 'd', 'memory.jsonl'), join(home, 'p'));
    expect(items.map(scopeFilter(join(home, 'p')))).toEqual([true, true, false]);
  });
});

describe('which project items apply', () => {
  it('by identity in every confirmed clone of the remote, by path inside the path, and a path scope in another confirmed clone of its remote', async () => {
    const home = realPath(tmpDir());
    gitDir(join(home, 'laptop-shop', '.git'), origin('git@example.com:acme/shop.git'));
    gitDir(join(home, 'server', 'shop', '.git'), origin('https://example.com/acme/shop'));
    gitDir(join(home, 'other', '.git'), origin('https://example.com/acme/other'));
    mkdirSync(join(home, 'server', 'shop', 'src'));
    const items = [
      { scope: 'git:example.com/acme/shop' },
      { scope: join(home, 'laptop-shop') },
      { scope: join(home, 'laptop-shop', 'docs') },
      { scope: '/nowhere/shop' },
      {},
    ];
    const mem = join(home, 'd', 'memory.jsonl');
    // Not confirmed: the remote URL names the project, and grants nothing (the path scope applies inside its path only).
    expect(items.map(scopeFilter(join(home, 'server', 'shop', 'src')))).toEqual([false, false, false, false, true]);
    expect(items.map(scopeFilter(join(home, 'laptop-shop')))).toEqual([false, true, false, false, true]);
    await trustProjectAt(mem, join(home, 'server', 'shop', 'src'));
    await trustProjectAt(mem, join(home, 'laptop-shop'));
    expect(items.map(scopeFilter(join(home, 'server', 'shop', 'src')))).toEqual([true, true, false, false, true]);
    expect(items.map(scopeFilter(join(home, 'laptop-shop')))).toEqual([true, true, false, false, true]);
    expect(items.map(scopeFilter(join(home, 'other')))).toEqual([false, false, false, false, true]);
    expect(items.map(scopeFilter(home))).toEqual([false, false, false, false, true]);
  });
});

describe('remotesIn (git config text)', () => {
  it('quotes, escapes, comments, continued lines, case of section and key, the old [remote.NAME] form', () => {
    const text = [
      '# comment',
      '[Remote "origin"] URL = "https://example.com/a b/shop" ; comment',
      '\turl = https://example.com/second-url-ignored',
      '[remote.Fork]',
      '  url = git@example.com:me/sh\\',
      'op.git # trailing',
      '[remote "we\\"ird"]',
      '\tpushurl = https://example.com/push-only',
      '\turl',
      '[branch "main"]',
      '\turl = https://example.com/not-a-remote',
    ].join('\n');
    expect(remotesIn(text)).toEqual([
      { name: 'origin', url: 'https://example.com/a b/shop' },
      { name: 'fork', url: 'git@example.com:me/shop.git' },
    ]);
  });
});

describe('isScope (memory.jsonl and imports)', () => {
  it('accepts paths, git: and id: scopes; refuses the rest', () => {
    const ok = ['/home/u/shop', '~', '~/src/app', 'git:github.com/acme/shop', 'git:/srv/git/shop', 'id:acme-shop'];
    const bad = ['shop', 'git:', 'git:a b', 'id:', 'id:has space', 'id:-leading', 'id:' + 'x'.repeat(201), 'GIT:x', 3, null];
    expect(ok.map(isScope)).toEqual(ok.map(() => true));
    expect(bad.map(isScope)).toEqual(bad.map(() => false));
  });
});

describe('identity scopes in memory.jsonl and exports', () => {
  it('load from memory.jsonl, survive a Markdown export and import; a bad one is reported', () => {
    const lines = [
      { id: 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'a', scope: 'git:github.com/acme/shop' },
      { id: 2, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'b', scope: 'id:acme-shop' },
      { id: 3, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'c', scope: 'id:no spaces allowed' },
    ];
    const entries = parseLines(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 1, true);
    expect(entries.map((e) => e.type)).toEqual(['item', 'item', 'bad']);
    const items = entries.flatMap((e) => (e.type === 'item' ? [e.item] : []));
    const back = parseImport(exportMarkdown(items, () => false, new Date('2026-02-01T00:00:00Z')));
    expect(back.problems).toEqual([]);
    expect(back.items.map((t) => t.scope)).toEqual(['git:github.com/acme/shop', 'id:acme-shop']);
  });
});
