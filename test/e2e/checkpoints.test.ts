/** Checkpoints against real git (a child process, hence e2e): snapshot, list, restore, and what is never touched. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { MAX_FILE_BYTES } from '../../src/checkpoints/types';
import { tmpDir } from '../helpers/tmp';

/** Every entry under `dir` (.git included): path → kind, mode and a hash of the content or link. */
function treeHash(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link ${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(p);
      } else out[rel] = `file ${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

function write(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A small project: sources in a tracked dir, odd names, a binary, a symlink, CRLF text under
 * .gitattributes that would convert it, an executable, and an ignored build dir. */
function project(): { work: string; data: string } {
  const base = tmpDir('aish-cp-');
  const work = join(base, 'work');
  write(work, {
    '.gitignore': 'build/\n*.log\n',
    '.gitattributes': '* text=auto eol=lf\n',
    'src/main.ts': 'export const x = 1;\n',
    'src/lib/util.ts': 'line one\r\nline two\r\n',
    'src/lib/sp ace ü.txt': 'odd name\n',
    'src/empty': '',
    'assets/blob.bin': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)),
    'build/out.js': 'ignored output\n',
    'debug.log': 'ignored log\n',
    'run.sh': '#!/bin/sh\necho hi\n',
  });
  chmodSync(join(work, 'run.sh'), 0o755);
  symlinkSync('src/main.ts', join(work, 'link-to-main'));
  return { work, data: checkpointsRoot(join(base, 'data')) };
}

const savedGitDir = process.env.GIT_DIR;
afterEach(() => {
  if (savedGitDir === undefined) delete process.env.GIT_DIR;
  else process.env.GIT_DIR = savedGitDir;
});

describe('checkpoints: snapshot and restore', () => {
  it('snapshot → rm -rf of a tracked dir → restore brings it back byte-identical', async () => {
    const { work, data } = project();
    const before = treeHash(work);
    const cps = new Checkpoints(data, work);
    const cp = await cps.snapshot('rm -rf src', 'step 2/5');
    expect(cp).toMatchObject({ label: 'rm -rf src', step: 'step 2/5', dir: work });
    expect(cp!.id).toMatch(/^[0-9a-f]{8}$/);
    rmSync(join(work, 'src'), { recursive: true });
    const r = await cps.restore();
    expect(r.checkpoint.id).toBe(cp!.id);
    expect(r).toMatchObject({ written: 4, removed: 0, changed: 4, keptLarge: 0 });
    expect(treeHash(work)).toEqual(before);
  });

  it('files created since are removed, changed ones written back; ignored files stay as they are now', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work);
    await cps.snapshot('edit');
    const before = treeHash(work, (rel) => rel.startsWith('build') || rel === 'debug.log');
    write(work, {
      'new/deep/file.ts': 'new\n',
      'top.txt': 'new\n',
      'src/main.ts': 'changed\n',
      'build/out.js': 'rebuilt\n',
      'debug.log': 'more\n',
      'build/new.js': 'x',
    });
    rmSync(join(work, 'run.sh'));
    const r = await cps.restore();
    expect(r).toMatchObject({ written: 2, removed: 2 });
    expect(treeHash(work, (rel) => rel.startsWith('build') || rel === 'debug.log')).toEqual(before);
    expect(existsSync(join(work, 'new'))).toBe(false); // emptied directories go too
    expect(readFileSync(join(work, 'build/out.js'), 'utf8')).toBe('rebuilt\n');
    expect(readFileSync(join(work, 'debug.log'), 'utf8')).toBe('more\n');
    expect(existsSync(join(work, 'build/new.js'))).toBe(true);
  });

  it('changedSince names the files a restore would write back or remove, and records nothing', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work);
    const cp = (await cps.snapshot('edit'))!;
    expect(await cps.changedSince(cp)).toEqual([]);
    write(work, { 'top.txt': 'new\n', 'src/main.ts': 'changed\n', 'build/out.js': 'rebuilt\n', 'debug.log': 'more\n' });
    rmSync(join(work, 'run.sh'));
    writeFileSync(join(work, 'huge.bin'), Buffer.alloc(MAX_FILE_BYTES + 1));
    expect((await cps.changedSince(cp)).sort()).toEqual(['run.sh', 'src/main.ts', 'top.txt']);
    expect(await cps.list()).toHaveLength(1);
    await cps.restore(cp.id);
    expect(await cps.changedSince(cp)).toEqual([]);
  });

  it("never reads or writes the user's .git, even with GIT_DIR pointing at it", async () => {
    const { work, data } = project();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: work,
        env: { PATH: process.env.PATH, HOME: work },
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'user commit');
    const dotGit = () => treeHash(join(work, '.git'));
    const userGit = dotGit();
    process.env.GIT_DIR = join(work, '.git');
    const cps = new Checkpoints(data, work);
    await cps.snapshot('one');
    write(work, { 'src/main.ts': 'changed\n', 'extra.txt': 'x' });
    await cps.snapshot('two');
    await cps.restore('2');
    await cps.restore();
    expect(dotGit()).toEqual(userGit);
    expect(readFileSync(join(work, 'src/main.ts'), 'utf8')).toBe('changed\n');
    const shadow = execFileSync('git', [`--git-dir=${cps.shadowDir}`, 'ls-tree', '-r', '--name-only', 'refs/heads/main'], {
      env: { PATH: process.env.PATH },
    }).toString();
    expect(shadow.split('\n')).not.toContain('.git');
    expect(shadow).not.toMatch(/^\.git\//m);
  });

  it('a repository nested in the tree is left out and left alone', async () => {
    const { work, data } = project();
    const sub = join(work, 'vendor', 'lib');
    write(sub, { 'lib.c': 'int x;\n' });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: sub,
        env: { PATH: process.env.PATH, HOME: sub },
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'nested');
    const before = treeHash(sub);
    const cps = new Checkpoints(data, work);
    await cps.snapshot('one');
    write(work, { 'src/main.ts': 'changed\n' });
    write(sub, { 'new.c': 'new\n' });
    await cps.restore();
    expect(readFileSync(join(work, 'src/main.ts'), 'utf8')).toBe('export const x = 1;\n');
    expect(treeHash(sub, (rel) => rel === 'new.c')).toEqual(before);
    expect(existsSync(join(sub, 'new.c'))).toBe(true);
    const files = execFileSync('git', [`--git-dir=${cps.shadowDir}`, 'ls-tree', '-r', '--name-only', 'refs/heads/main'], {
      env: { PATH: process.env.PATH },
    }).toString();
    expect(files).not.toContain('vendor');
  });

  it('a restore is itself undone by the next restore', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work);
    await cps.snapshot('rm -rf assets');
    rmSync(join(work, 'assets'), { recursive: true });
    write(work, { 'after.txt': 'made after\n' });
    const afterRm = treeHash(work);
    const r = await cps.restore();
    expect(r.before?.label).toBe(`restore ${r.checkpoint.id}`);
    expect(existsSync(join(work, 'assets/blob.bin'))).toBe(true);
    const undo = await cps.restore();
    expect(undo.checkpoint.id).toBe(r.before!.id);
    expect(treeHash(work)).toEqual(afterRm);
  });

  it('restoring to the state the tree is already in changes nothing and records nothing', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work);
    await cps.snapshot('one');
    write(work, { 'src/main.ts': 'v2\n' });
    await cps.snapshot('two');
    await cps.restore('2');
    const n = (await cps.list()).length;
    const r = await cps.restore('2'); // "one" again: the tree is already that
    expect(r).toMatchObject({ changed: 0, before: null });
    expect(await cps.list()).toHaveLength(n);
  });

  it('restores by position and by id prefix; an unchanged tree reuses the newest checkpoint', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work);
    const a = await cps.snapshot('first');
    write(work, { 'src/main.ts': 'v2\n' });
    const b = await cps.snapshot('second');
    const again = await cps.snapshot('third, nothing changed');
    expect(again).toMatchObject({ id: b!.id, label: 'second', reused: true });
    expect((await cps.list()).map((c) => c.label)).toEqual(['second', 'first']);
    write(work, { 'src/main.ts': 'v3\n' });
    await cps.restore('2'); // position 2 = "first"
    expect(readFileSync(join(work, 'src/main.ts'), 'utf8')).toBe('export const x = 1;\n');
    await cps.restore(b!.id.slice(0, 5));
    expect(readFileSync(join(work, 'src/main.ts'), 'utf8')).toBe('v2\n');
    expect(a!.id).not.toBe(b!.id);
    await expect(cps.restore('9')).rejects.toThrow(/^no checkpoint 9 — there are 4 \(see aish checkpoints list\)$/);
    await expect(cps.restore('zz')).rejects.toThrow(/neither a position/);
  });
});

describe('checkpoints: limits', () => {
  it('files over the size cap are skipped, counted, and never overwritten or removed by a restore', async () => {
    const { work, data } = project();
    const big = Buffer.alloc(MAX_FILE_BYTES + 1, 1);
    write(work, { 'data/big.bin': big, 'data/small.bin': 'small' });
    const cps = new Checkpoints(data, work);
    const cp = await cps.snapshot('with a big file');
    expect(cp!.skipped).toBe(1);
    expect((await cps.list())[0]!.skipped).toBe(1);
    write(work, { 'data/big2.bin': big, 'data/small.bin': 'changed' });
    const r = await cps.restore();
    expect(r.keptLarge).toBe(0);
    expect(readFileSync(join(work, 'data/small.bin'), 'utf8')).toBe('small');
    expect(statSync(join(work, 'data/big.bin')).size).toBe(big.length);
    expect(statSync(join(work, 'data/big2.bin')).size).toBe(big.length);
  });

  it('a file that grew over the cap since a checkpoint is left as it is now', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work, { maxFileBytes: 100 });
    write(work, { 'grows.txt': 'small\n' });
    await cps.snapshot('small');
    write(work, { 'grows.txt': 'x'.repeat(200) });
    const r = await cps.restore();
    expect(r.keptLarge).toBe(1);
    expect(readFileSync(join(work, 'grows.txt'), 'utf8')).toBe('x'.repeat(200));
  });

  it('lists across instances (another aish run) on the same data dir; each directory has its own', async () => {
    const { work, data } = project();
    await new Checkpoints(data, work).snapshot('from run one', 'step 1/2');
    write(work, { 'src/main.ts': 'v2\n' });
    await new Checkpoints(data, work).snapshot('from run two', 'step 2/2');
    const list = await new Checkpoints(data, work).list();
    expect(list.map((c) => [c.label, c.step])).toEqual([
      ['from run two', 'step 2/2'],
      ['from run one', 'step 1/2'],
    ]);
    expect(Date.parse(list[0]!.ts)).toBeGreaterThanOrEqual(Date.parse(list[1]!.ts));
    const other = join(work, 'src');
    expect(await new Checkpoints(data, other).list()).toEqual([]);
    let cwd = work;
    const following = new Checkpoints(data, () => cwd);
    expect(await following.list()).toHaveLength(2);
    cwd = other;
    expect(await following.list()).toHaveLength(0);
  });

  it('shadow directories are private (0700); no git runs for a directory without checkpoints', async () => {
    const { work, data } = project();
    const cps = new Checkpoints(data, work, { git: '/nonexistent/git' });
    expect(await cps.list()).toEqual([]);
    await new Checkpoints(data, work).snapshot('x');
    expect(statSync(data).mode & 0o777).toBe(0o700);
    expect(statSync(cps.shadowDir).mode & 0o777).toBe(0o700);
  });

  it('a data dir inside the working tree is not snapshotted into itself', async () => {
    const { work } = project();
    const data = checkpointsRoot(join(work, '.aish-data'));
    const cps = new Checkpoints(data, work);
    await cps.snapshot('one');
    write(work, { 'src/main.ts': 'v2\n' });
    await cps.snapshot('two');
    const files = execFileSync('git', [`--git-dir=${cps.shadowDir}`, 'ls-tree', '-r', '--name-only', 'refs/heads/main'], {
      env: { PATH: process.env.PATH },
    }).toString();
    expect(files).not.toContain('.aish-data');
  });
});

describe('checkpoints: ignore rules', () => {
  it('a directory inside a project follows the .gitignore files above it', async () => {
    const base = tmpDir('aish-cp-');
    const app = join(base, 'repo', 'packages', 'app');
    write(join(base, 'repo'), {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'node_modules/\n/packages/app/dist/\n/src/\n',
      'packages/app/src/z.ts': 'z',
      'packages/app/node_modules/m/index.js': 'm',
      'packages/app/dist/out.js': 'o',
      'packages/app/.gitignore': '*.tmp\n',
      'packages/app/scratch.tmp': 't',
    });
    const cps = new Checkpoints(checkpointsRoot(join(base, 'data')), app);
    await cps.snapshot('x');
    const files = execFileSync('git', [`--git-dir=${cps.shadowDir}`, 'ls-tree', '-r', '--name-only', 'refs/heads/main'], {
      env: { PATH: process.env.PATH },
    }).toString();
    expect(files.trim().split('\n')).toEqual(['.gitignore', 'src/z.ts']);
  });
});

describe('checkpoints: refusals are one line', () => {
  it('no checkpoints, git missing, no such directory, data dir not writable', async () => {
    const { work, data } = project();
    await expect(new Checkpoints(data, work).restore()).rejects.toThrow(`no checkpoints for ${work} — nothing to restore`);
    await expect(new Checkpoints(data, work, { git: '/nonexistent/git' }).snapshot('x')).rejects.toThrow(
      /^checkpoints need git, which was not found \(\/nonexistent\/git\)/,
    );
    await expect(new Checkpoints(data, join(work, 'gone')).snapshot('x')).rejects.toThrow(
      `cannot snapshot ${join(work, 'gone')}: no such directory`,
    );
    const blocked = join(work, 'run.sh', 'checkpoints');
    await expect(new Checkpoints(blocked, work).snapshot('x')).rejects.toThrow(`cannot create checkpoints in ${blocked}: ENOTDIR`);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable working directory is named', async () => {
    const { work, data } = project();
    chmodSync(work, 0);
    try {
      await expect(new Checkpoints(data, work).snapshot('x')).rejects.toThrow(`cannot snapshot ${work}: permission denied`);
    } finally {
      chmodSync(work, 0o755);
    }
  });

  it('the home directory and the file system root are not snapshotted', async () => {
    const { data } = project();
    expect(await new Checkpoints(data, '/').snapshot('x')).toBeNull();
    expect(await new Checkpoints(data, process.env.HOME ?? '/').snapshot('x')).toBeNull();
  });
});
