/**
 * The after-the-fact check on a real tree and a real shadow repository: a step is judged by what it
 * did. Changes to what existed (content, deletion, permission bits, links, a file turned into a
 * directory), in the checkpoint or not (ignored files, the repository's .git program files), and
 * new files that configure programs are put back; keep() puts the step's result in place again.
 * New ordinary files, rewrites with the same bytes, and ignored directories are not judged.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { tmpDir } from '../helpers/tmp';

const mode = (p: string) => statSync(p).mode & 0o7777;

function tree(): { work: string; cps: Checkpoints } {
  const base = tmpDir('aish-watch-');
  const work = join(base, 'work');
  mkdirSync(join(work, 'victim'), { recursive: true });
  mkdirSync(join(work, 'build'), { recursive: true });
  writeFileSync(join(work, '.gitignore'), '.env\nbuild/\n');
  writeFileSync(join(work, 'victim', 'keep'), 'precious\n', { mode: 0o640 });
  writeFileSync(join(work, 'README.md'), '# r\n');
  writeFileSync(join(work, '.env'), 'TOKEN=1\n', { mode: 0o600 });
  writeFileSync(join(work, 'build', 'out.o'), 'old object\n');
  symlinkSync('README.md', join(work, 'link'));
  execFileSync('git', ['init', '-q'], { cwd: work, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  return { work, cps: new Checkpoints(checkpointsRoot(join(base, 'data')), work) };
}

async function judged(cps: Checkpoints, step: () => void) {
  const w = await cps.watch('step');
  expect(w).not.toBeNull();
  step();
  return w!.check();
}

describe('the after-the-fact check', () => {
  it('puts back an overwritten file, and keep() puts the overwrite in place again', async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => writeFileSync(join(work, 'victim', 'keep'), 'bundle bytes\n'));
    expect(v?.changes).toEqual([{ path: 'victim/keep', what: 'changed' }]);
    expect(v?.notRestored).toEqual([]);
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('precious\n');
    expect(mode(join(work, 'victim', 'keep'))).toBe(0o640);
    v!.keep!();
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('bundle bytes\n');
  });

  it('puts back deletions, a file replaced by a directory, a retargeted link and changed bits', async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => {
      rmSync(join(work, 'victim'), { recursive: true });
      writeFileSync(join(work, 'victim'), 'now a file\n');
      rmSync(join(work, 'README.md'));
      mkdirSync(join(work, 'README.md'));
      writeFileSync(join(work, 'README.md', 'inside'), 'x');
      rmSync(join(work, 'link'));
      symlinkSync('/etc/passwd', join(work, 'link'));
      chmodSync(join(work, '.gitignore'), 0o600);
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual([
      '.gitignore mode',
      'README.md changed',
      'link changed',
      'victim changed',
      'victim/keep deleted',
    ]);
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('precious\n');
    expect(readFileSync(join(work, 'README.md'), 'utf8')).toBe('# r\n');
    expect(readlinkSync(join(work, 'link'))).toBe('README.md');
    expect(mode(join(work, '.gitignore'))).toBe(0o644);
  });

  it('an ignored file and the .git program files come back from side copies', async () => {
    const { work, cps } = tree();
    const config = readFileSync(join(work, '.git', 'config'), 'utf8');
    const v = await judged(cps, () => {
      writeFileSync(join(work, '.env'), 'TOKEN=stolen\n');
      writeFileSync(join(work, '.git', 'config'), '[core]\n\tfsmonitor = ./evil.sh\n');
      writeFileSync(join(work, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nevil\n', { mode: 0o755 });
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual([
      '.env changed',
      '.git/config changed',
      '.git/hooks/pre-commit created',
    ]);
    expect(readFileSync(join(work, '.env'), 'utf8')).toBe('TOKEN=1\n');
    expect(mode(join(work, '.env'))).toBe(0o600);
    expect(readFileSync(join(work, '.git', 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(work, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('a new file that configures programs is removed (with the directories made for it); keep() brings it back', async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => {
      writeFileSync(join(work, '.npmrc'), 'script-shell=./evil.sh\n');
      mkdirSync(join(work, 'sub', '.cargo'), { recursive: true });
      writeFileSync(join(work, 'sub', '.cargo', 'config.toml'), '[target]\n');
      writeFileSync(join(work, 'notes.md'), 'new and ordinary\n');
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual(['.npmrc created', 'sub/.cargo/config.toml created']);
    expect(existsSync(join(work, '.npmrc'))).toBe(false);
    expect(existsSync(join(work, 'sub'))).toBe(false);
    expect(readFileSync(join(work, 'notes.md'), 'utf8')).toBe('new and ordinary\n');
    v!.keep!();
    expect(readFileSync(join(work, '.npmrc'), 'utf8')).toBe('script-shell=./evil.sh\n');
    expect(readFileSync(join(work, 'sub', '.cargo', 'config.toml'), 'utf8')).toBe('[target]\n');
  });

  it('new ordinary files, the same bytes rewritten, a touch and ignored directories are not judged', async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => {
      writeFileSync(join(work, 'new.txt'), 'fresh\n');
      mkdirSync(join(work, 'out'));
      writeFileSync(join(work, 'out', 'a.js'), 'x');
      writeFileSync(join(work, 'victim', 'keep'), 'precious\n');
      execFileSync('touch', [join(work, 'README.md')]);
      writeFileSync(join(work, 'build', 'out.o'), 'rebuilt\n');
      writeFileSync(join(work, 'build', '.stamp'), '1');
    });
    expect(v).toBeNull();
    expect(readFileSync(join(work, 'build', 'out.o'), 'utf8')).toBe('rebuilt\n');
  });

  it('a file in an ignored directory that is not a generated one is judged and put back; generated ones are not', async () => {
    const { work, cps } = tree();
    writeFileSync(join(work, '.gitignore'), '.env\nbuild/\ncerts/\nnode_modules/\n');
    mkdirSync(join(work, 'certs', 'old'), { recursive: true });
    writeFileSync(join(work, 'certs', 'server.key'), 'KEY\n', { mode: 0o600 });
    writeFileSync(join(work, 'certs', 'old', 'ca.pem'), 'CA\n');
    mkdirSync(join(work, 'node_modules', 'x'), { recursive: true });
    writeFileSync(join(work, 'node_modules', 'x', 'index.js'), 'old\n');
    const v = await judged(cps, () => {
      writeFileSync(join(work, 'certs', 'server.key'), '{}\n');
      rmSync(join(work, 'certs', 'old'), { recursive: true });
      writeFileSync(join(work, 'certs', 'new.pem'), 'a new ordinary file\n');
      writeFileSync(join(work, 'node_modules', 'x', 'index.js'), 'reinstalled\n');
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual([
      'certs/old deleted',
      'certs/old/ca.pem deleted',
      'certs/server.key changed',
    ]);
    expect(v?.notRestored).toEqual([]);
    expect(readFileSync(join(work, 'certs', 'server.key'), 'utf8')).toBe('KEY\n');
    expect(mode(join(work, 'certs', 'server.key'))).toBe(0o600);
    expect(readFileSync(join(work, 'certs', 'old', 'ca.pem'), 'utf8')).toBe('CA\n');
    expect(readFileSync(join(work, 'certs', 'new.pem'), 'utf8')).toBe('a new ordinary file\n');
    expect(readFileSync(join(work, 'node_modules', 'x', 'index.js'), 'utf8')).toBe('reinstalled\n');
  });

  it('a file in a nested repository is judged and put back, and so is its git configuration', async () => {
    const { work, cps } = tree();
    mkdirSync(join(work, 'vendor', 'lib'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: join(work, 'vendor', 'lib'), env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    writeFileSync(join(work, 'vendor', 'lib', 'main.c'), 'int main;\n');
    const config = readFileSync(join(work, 'vendor', 'lib', '.git', 'config'), 'utf8');
    const v = await judged(cps, () => {
      writeFileSync(join(work, 'vendor', 'lib', 'main.c'), '{}\n');
      writeFileSync(join(work, 'vendor', 'lib', '.git', 'config'), '[core]\n\tfsmonitor = ./evil.sh\n');
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual(['vendor/lib/.git/config changed', 'vendor/lib/main.c changed']);
    expect(readFileSync(join(work, 'vendor', 'lib', 'main.c'), 'utf8')).toBe('int main;\n');
    expect(readFileSync(join(work, 'vendor', 'lib', '.git', 'config'), 'utf8')).toBe(config);
  });

  it("a planted interactive rebase (its todo runs `exec` lines at the user's next git rebase --continue) is removed", async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => {
      mkdirSync(join(work, '.git', 'rebase-merge'));
      writeFileSync(join(work, '.git', 'rebase-merge', 'git-rebase-todo'), 'exec touch ~/pwned\n');
      writeFileSync(join(work, '.git', 'rebase-merge', 'interactive'), '');
    });
    expect(v?.changes.map((c) => `${c.path} ${c.what}`).sort()).toEqual([
      '.git/rebase-merge/git-rebase-todo created',
      '.git/rebase-merge/interactive created',
    ]);
    expect(existsSync(join(work, '.git', 'rebase-merge'))).toBe(false);
  });

  it('a repository the step made, and a git directory planted under .git/modules, are removed whole', async () => {
    const { work, cps } = tree();
    const v = await judged(cps, () => {
      execFileSync('git', ['init', '-q', join(work, 'newrepo')], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
      writeFileSync(join(work, 'newrepo', 'a.txt'), 'ordinary\n');
      mkdirSync(join(work, '.git', 'modules', 'x'), { recursive: true });
      writeFileSync(join(work, '.git', 'modules', 'x', 'config'), '[core]\n\tfsmonitor = ./evil.sh\n');
    });
    expect(v?.changes.map((c) => c.path)).toContain('newrepo/.git/config');
    expect(v?.changes.map((c) => c.path)).toContain('.git/modules/x/config');
    expect(v?.notRestored).toEqual([]);
    expect(existsSync(join(work, 'newrepo', '.git'))).toBe(false);
    expect(readFileSync(join(work, 'newrepo', 'a.txt'), 'utf8')).toBe('ordinary\n');
    expect(existsSync(join(work, '.git', 'modules', 'x', 'config'))).toBe(false);
  });

  it('a fifo in place of a file (left by a step --yes ran unjudged) does not fail the next snapshot, nor refuse every step after it', async () => {
    const { work, cps } = tree();
    await cps.snapshot('before');
    rmSync(join(work, 'README.md'));
    execFileSync('mkfifo', [join(work, 'README.md')]);
    const v = await judged(cps, () => writeFileSync(join(work, 'victim', 'keep'), 'overwritten\n'));
    expect(v?.changes).toEqual([{ path: 'victim/keep', what: 'changed' }]);
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('precious\n');
  });

  it('never writes or removes through a link a step put in place of a directory', async () => {
    const { work, cps } = tree();
    const outside = join(work, '..', 'outside');
    mkdirSync(join(outside, 'hooks'), { recursive: true });
    writeFileSync(join(outside, 'keep'), 'outside\n');
    writeFileSync(join(outside, 'hooks', 'pre-commit.sample'), 'outside hook\n');
    const v = await judged(cps, () => {
      rmSync(join(work, 'victim'), { recursive: true });
      symlinkSync(outside, join(work, 'victim'));
      rmSync(join(work, '.git', 'hooks'), { recursive: true });
      symlinkSync(join(outside, 'hooks'), join(work, '.git', 'hooks'));
    });
    expect(v?.changes.map((c) => c.path)).toContain('victim');
    expect(readFileSync(join(outside, 'keep'), 'utf8')).toBe('outside\n');
    expect(readFileSync(join(outside, 'hooks', 'pre-commit.sample'), 'utf8')).toBe('outside hook\n');
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('precious\n');
    expect(statSync(join(work, '.git', 'hooks')).isDirectory()).toBe(true);
    expect(existsSync(join(work, '.git', 'hooks', 'pre-commit.sample'))).toBe(true);
  });

  it('a path found through a link inside .git is not removed through it', async () => {
    const { work, cps } = tree();
    const outside = join(work, '..', 'objects-elsewhere');
    mkdirSync(join(outside, 'info'), { recursive: true });
    writeFileSync(join(outside, 'info', 'alternates'), 'outside\n');
    await judged(cps, () => {
      execFileSync('mv', [join(work, '.git', 'objects'), join(work, '..', 'objects-moved')]);
      symlinkSync(outside, join(work, '.git', 'objects'));
    });
    expect(readFileSync(join(outside, 'info', 'alternates'), 'utf8')).toBe('outside\n');
  });
});
