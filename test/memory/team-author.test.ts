/** The name shared items are filed under: memory.sync.name, git's user.name (read from its files), the login name. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { authorName, gitUserName, safeName, userNameIn } from '../../src/memory/team/team-author';
import { tmpDir } from '../helpers/tmp';

describe('team author name', () => {
  it('safeName keeps lowercase a-z 0-9 . _ - only', () => {
    expect(safeName('Alice Smith')).toBe('alice-smith');
    expect(safeName('José Ñúñez')).toBe('jose-nunez');
    expect(safeName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeName('.hidden')).toBe('hidden');
    expect(safeName('日本')).toBe('');
    expect(safeName('a'.repeat(100))).toHaveLength(64);
  });

  it('userNameIn reads [user] name as git does: last one wins, quotes and comments', () => {
    expect(userNameIn('[user]\n\tname = First\n[core]\n\tname = no\n[user]\n  name = "Last One" # comment\n')).toBe('Last One');
    expect(userNameIn('[User]\nName=Mixed\n')).toBe('Mixed');
    expect(userNameIn('[core]\nname = x\n')).toBeUndefined();
  });

  it('the repository’s config beats ~/.gitconfig, which beats the XDG file; memory.sync.name beats them all', () => {
    const home = tmpDir();
    const repo = join(home, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(home, 'xdg', 'git'), { recursive: true });
    writeFileSync(join(home, 'xdg', 'git', 'config'), '[user]\nname = Xdg User\n');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'xdg') };
    expect(gitUserName(repo, env)).toBe('Xdg User');
    writeFileSync(join(home, '.gitconfig'), '[user]\nname = Global User\n');
    expect(gitUserName(repo, env)).toBe('Global User');
    writeFileSync(join(repo, '.git', 'config'), '[user]\nname = Repo User\n');
    expect(authorName(DEFAULT_CONFIG, repo, env)).toBe('repo-user');
    const withSync = { ...DEFAULT_CONFIG, memory: { ...DEFAULT_CONFIG.memory, sync: { name: 'Laptop Me' } } } as unknown as AishConfig;
    expect(authorName(withSync, repo, env)).toBe('laptop-me');
  });

  it('without any git name: the login name, made safe', () => {
    const home = tmpDir();
    const name = authorName(DEFAULT_CONFIG, home, { HOME: home, XDG_CONFIG_HOME: join(home, 'x') });
    expect(name).toMatch(/^[a-z0-9][a-z0-9._-]*$/);
  });
});
