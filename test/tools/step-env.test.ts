/** What a tool step's environment keeps: secret-named variables out, the pass list in, git hardened for unasked steps. */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunCommandTool, startDir } from '../../src/tools/run-command';
import { keptConfig } from '../../src/tools/git-view';
import { scanProject } from '../../src/tools/project-scan';
import { isProjectSecret } from '../../src/tools/safety/secret-names';
import { findSecrets } from '../../src/tools/secret-paths';
import { GIT_OVERRIDES, isSecretVariable, stepEnv } from '../../src/tools/step-env';
import { tmpDir } from '../helpers/tmp';

describe('secret-named variables', () => {
  it.each([
    'OPENAI_API_KEY',
    'openai_api_key',
    'Anthropic_Api_Key',
    'GITHUB_TOKEN',
    'gh_token',
    'GH_ENTERPRISE_TOKEN',
    'AWS_ACCESS_KEY_ID',
    'aws_session_token',
    'AWS_PROFILE',
    'DB_PASSWORD',
    'PGPASSWORD',
    'MYSQL_PWD',
    'MY_PASSWD',
    'CLIENT_SECRET',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'NPM_CONFIG__AUTH',
    'SSH_AUTH_SOCK',
    'HTTP_AUTHORIZATION',
    'DATABASE_URL',
    'REDIS_URL',
    'APP_MONGODB_URI',
    'SENTRY_DSN',
    'VAULT_ADDR',
    'KUBECONFIG',
    'SESSION_COOKIE',
    'SIGNING_PRIVATE_PEM',
  ])('%s is taken out', (name) => expect(isSecretVariable(name, 'x')).toBe(true));

  it.each(['PATH', 'HOME', 'PWD', 'OLDPWD', 'LANG', 'TERM', 'SHELL', 'EDITOR', 'NODE_ENV', 'GIT_AUTHOR_NAME', 'CI', 'XDG_CONFIG_HOME'])(
    '%s stays',
    (name) => expect(isSecretVariable(name, 'plain')).toBe(false),
  );

  it('a value with a password in a URL is taken out whatever its name', () => {
    expect(isSecretVariable('UPSTREAM', 'https://bob:hunter2@example.com/repo')).toBe(true);
    expect(isSecretVariable('UPSTREAM', 'https://example.com/repo')).toBe(false);
  });

  it('passEnv keeps names (exact or PREFIX*); nothing else of the secrets survives', () => {
    const env = stepEnv(
      { PATH: '/bin', NPM_TOKEN: 'a', AWS_REGION: 'b', AWS_SECRET_ACCESS_KEY: 'c', OPENAI_API_KEY: 'd' },
      { passEnv: ['NPM_TOKEN', 'AWS_*'], unasked: false },
    );
    expect(env).toEqual({ PATH: '/bin', NPM_TOKEN: 'a', AWS_REGION: 'b', AWS_SECRET_ACCESS_KEY: 'c' });
  });
});

describe('git for unasked steps', () => {
  it('system and global config off, overrides in command scope, redirects dropped; approved steps keep git as it is', () => {
    const base = { PATH: process.env.PATH, GIT_DIR: '/elsewhere', GIT_EXTERNAL_DIFF: 'x', GIT_CONFIG_KEY_99: 'core.pager' };
    const env = stepEnv(base, { passEnv: [], unasked: true });
    expect(env.GIT_CONFIG_NOSYSTEM).toBe('1');
    expect(env.GIT_CONFIG_GLOBAL).toBe('/dev/null');
    expect(env.GIT_ALLOW_PROTOCOL).toBe('file');
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
    expect(env.GIT_CONFIG_KEY_99).toBeUndefined();
    expect(Number(env.GIT_CONFIG_COUNT)).toBe(GIT_OVERRIDES.length);
    expect(stepEnv(base, { passEnv: [], unasked: false }).GIT_DIR).toBe('/elsewhere');
  });
});

describe('credential stores found before a step', () => {
  it('home, XDG, project .env files (not templates), through symlinks, never the project or above it', async () => {
    const home = tmpDir();
    const project = join(home, 'proj');
    mkdirSync(join(project, 'a', 'b'), { recursive: true });
    mkdirSync(join(home, '.ssh'));
    mkdirSync(join(home, 'real-aws'));
    symlinkSync(join(home, 'real-aws'), join(home, '.aws'));
    mkdirSync(join(home, 'xdg', 'gh'), { recursive: true });
    writeFileSync(join(home, '.netrc'), '');
    writeFileSync(join(home, '.ssh', 'id_rsa'), ''); // inside a hidden directory: covered by it
    for (const f of ['.env', 'a/b/.env.production', '.env.example', 'a/.envrc']) writeFileSync(join(project, f), '');
    const scan = await scanProject(project);
    const found = await findSecrets({ home, configHome: join(home, 'xdg'), project, extra: [home, project, ...scan.secrets] });
    expect(found.dirs).toEqual([join(home, '.ssh'), join(home, 'real-aws'), join(home, 'xdg', 'gh')].sort());
    expect(found.files).toEqual(
      [
        ...(await systemFiles()),
        join(home, '.netrc'),
        join(project, '.env'),
        join(project, 'a', '.envrc'),
        join(project, 'a/b/.env.production'),
      ].sort(),
    );
  });

  it('names', () => {
    expect(['.env', '.env.local', '.envrc', '.npmrc', 'id_ed25519'].every(isProjectSecret)).toBe(true);
    expect(['.env.example', '.env.sample', 'env', 'id_ed25519.pub', 'README'].some(isProjectSecret)).toBe(false);
    // Every name the classifier counts as credentials is hidden too: a read it misses finds it empty.
    expect(['server.pem', 'server.key', 'credentials.json', 'prod.tfvars', 'terraform.tfstate'].every(isProjectSecret)).toBe(true);
    expect(['server.crt', 'keys.ts', 'cert.pub'].some(isProjectSecret)).toBe(false);
  });
});

async function systemFiles(): Promise<string[]> {
  const { SYSTEM_SECRETS } = await import('../../src/tools/secret-paths');
  const { existsSync, realpathSync } = await import('node:fs');
  return SYSTEM_SECRETS.filter((f) => existsSync(f)).map((f) => realpathSync(f));
}

describe('where a step starts', () => {
  it('~, .., absolute paths and symlinks out of the project are outside; subdirectories are inside', () => {
    const home = tmpDir();
    const project = join(home, 'proj');
    mkdirSync(join(project, 'sub'), { recursive: true });
    mkdirSync(join(home, '.ssh'));
    symlinkSync(join(home, '.ssh'), join(project, 'keys'));
    expect(startDir(project, undefined, home).outside).toBe(false);
    expect(startDir(project, 'sub', home).outside).toBe(false);
    expect(startDir(project, 'sub/..', home).outside).toBe(false);
    expect(startDir(project, '~', home).outside).toBe(true);
    expect(startDir(project, '~/.ssh', home).outside).toBe(true);
    expect(startDir(project, '..', home).outside).toBe(true);
    expect(startDir(project, 'sub/../../.ssh', home).outside).toBe(true);
    expect(startDir(project, 'keys', home)).toEqual({ dir: join(home, '.ssh'), outside: true });
    expect(startDir(project, `${project}x`, home).outside).toBe(true); // a sibling sharing the prefix
    expect(startDir(project, '/', home).outside).toBe(true);
  });
});

describe('run_command with a cwd', () => {
  it("outside aish's directory the gate hears of it; a symlink moved out after the check stops the run", async () => {
    const home = tmpDir();
    const project = join(home, 'proj');
    mkdirSync(join(project, 'sub'), { recursive: true });
    symlinkSync(join(project, 'sub'), join(project, 'link'));
    const tool = new RunCommandTool();
    const away = await tool.prepare(JSON.stringify({ command: 'ls', cwd: home }), { cwd: project });
    if ('error' in away) throw new Error(away.error);
    expect(away.gate).toMatchObject({ outside: true, safe: false });
    const call = await tool.prepare(JSON.stringify({ command: 'ls', cwd: 'link' }), { cwd: project });
    if ('error' in call) throw new Error(call.error);
    expect(call.gate.outside).toBeUndefined();
    rmSync(join(project, 'link'));
    symlinkSync(home, join(project, 'link'));
    const r = await call.run({ cwd: project, signal: new AbortController().signal, unasked: true });
    expect(r.content).toMatch(/^not run: link is now outside/);
  });
});

describe('git configuration as unasked steps see it', () => {
  it('only keys that name no program are kept, quoted so git reads them back the same', () => {
    const listing = [
      'core.repositoryformatversion\n0',
      'core.fsmonitor\ntouch x',
      'core.bare\nfalse',
      'remote.my.origin.url\nhttps://example.com/a "b"',
      'diff.x.textconv\ntouch x',
      'filter.z.clean\ntouch x',
      'diff.external\ntouch x',
      'include.path\n../inc',
      'alias.st\n!touch x',
      'submodule.s.update\n!touch x',
      'extensions.objectformat\nsha256',
      'remote.up.url\nhttps://bob:ghp_SECRET@github.com/a/b',
      '',
    ].join('\0');
    expect(keptConfig(listing)).toBe(
      '[core]\n\trepositoryformatversion = "0"\n' +
        '[core]\n\tbare = "false"\n' +
        '[remote "my.origin"]\n\turl = "https://example.com/a \\"b\\""\n' +
        '[extensions]\n\tobjectformat = "sha256"\n' +
        '[remote "up"]\n\turl = "https://github.com/a/b"\n',
    );
  });

  it("the scan finds the project's repositories: .git dirs, .git files, bare and separate git dirs, commondir", async () => {
    const p = tmpDir();
    const git = (d: string, files: string[]) => {
      mkdirSync(join(p, d, 'objects'), { recursive: true });
      writeFileSync(join(p, d, 'HEAD'), 'ref: refs/heads/main\n');
      for (const f of files) writeFileSync(join(p, d, f), '');
    };
    git('.git', ['config']);
    git('nested/.git', ['config', 'config.worktree']);
    git('sep', ['config']);
    mkdirSync(join(p, 'wt'));
    writeFileSync(join(p, 'wt', '.git'), 'gitdir: ../sep\n');
    git('common', ['config']);
    git('.git-linked', []);
    writeFileSync(join(p, '.git', 'commondir'), '../common\n');
    const { gitConfigs } = await scanProject(p);
    expect(gitConfigs).toEqual(
      [
        join(p, '.git/config'),
        join(p, 'common/config'),
        join(p, 'nested/.git/config'),
        join(p, 'nested/.git/config.worktree'),
        join(p, 'sep/config'),
      ].sort(),
    );
  });
});
