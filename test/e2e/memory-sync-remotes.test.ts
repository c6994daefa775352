/**
 * `aish memory sync` writes only to a memory repository: each other kind of repository is refused
 * with exit 1 and one line, before anything is pushed (the remote's refs unchanged) or written here
 * (memory.jsonl byte-identical). Real git, real bare and non-bare repositories on disk.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { realPath } from '../../src/util/paths';
import { aishIn, syncBox, type SyncBox } from '../helpers/sync-boxes';
import { git, gitAsAish } from '../helpers/sync-machines';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

function world() {
  const root = realPath(tmpDir('aish-sync-remotes-'));
  let n = 0;
  const box = (remote: string) => {
    n++;
    return syncBox(join(root, `box${n}`), remote, `m${n}`);
  };
  const aish = (b: SyncBox, args: string[]) => aishIn(b, args);
  /** Every ref of the repository at `dir` (bare or not) and where HEAD points. */
  const refs = (dir: string) =>
    git(root, '-C', dir, 'for-each-ref', '--format=%(refname) %(objectname)') + git(root, '-C', dir, 'symbolic-ref', 'HEAD');
  /** A bare repository whose branch `branch` holds `files`, committed by a person. */
  const project = (name: string, branch: string, files: Record<string, string>) => {
    const bare = join(root, `${name}.git`);
    git(root, 'init', '-q', '--bare', `--initial-branch=${branch}`, bare);
    const work = join(root, `${name}-work`);
    git(root, 'clone', '-q', bare, work);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', 'Initial commit');
    git(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
    return { bare, work };
  };
  /** Sync to `remote` must be refused: exit 1, one line matching `why`, the remote's refs and memory.jsonl unchanged. */
  const refused = async (remote: string, repoDir: string, why: RegExp) => {
    const b = box(remote);
    expect((await aish(b, ['memory', 'add', 'fact', 'my private notes stay here'])).code).toBe(0);
    const before = { refs: refs(repoDir), memory: readFileSync(b.memory) };
    const r = await aish(b, ['memory', 'sync']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).not.toMatch(/\bat .*\.(js|ts):\d+/);
    expect(refs(repoDir)).toBe(before.refs);
    expect(readFileSync(b.memory).equals(before.memory)).toBe(true);
    return r.stderr;
  };
  /** A memory repository aish started: a first machine added an item and synced. */
  const started = async () => {
    const bare = join(root, 'memory.git');
    git(root, 'init', '-q', '--bare', bare);
    const a = box(bare);
    await aish(a, ['memory', 'add', 'fact', 'from a']);
    expect((await aish(a, ['memory', 'sync'])).code).toBe(0);
    return bare;
  };
  /** A clone of `bare` to commit to by hand. */
  const clone = (bare: string) => {
    const work = join(root, 'work');
    git(root, 'clone', '-q', bare, work);
    return work;
  };
  return { root, box, aish, refs, project, refused, started, clone };
}

const NOT_OURS = /is not a memory repository \(.+\) — point memory\.sync\.remote at an empty repository \(git init --bare\)$/m;
const WORK_TREE = /is a repository with a work tree, not a bare one.*git init --bare/;

describe('aish memory sync refuses what is not a memory repository', () => {
  it('a project whose default branch is master (with code): refused, naming the branch', async () => {
    const w = world();
    const { bare } = w.project('shop', 'master', { 'index.js': 'console.log(1);\n', 'README.md': '# shop\n' });
    const line = await w.refused(bare, bare, NOT_OURS);
    expect(line).toMatch(/it has the branch master; aish writes only main/);
  });

  it('a repository aish made, to which someone added another branch: refused', async () => {
    const w = world();
    const bare = await w.started();
    git(w.root, '-C', bare, 'branch', 'feature', 'main');
    const line = await w.refused(bare, bare, NOT_OURS);
    expect(line).toMatch(/the branch feature/);
  });

  it('a main whose files look like ours but whose commits are a person’s: refused', async () => {
    const w = world();
    const { bare } = w.project('lookalike', 'main', {
      'writers/0123456789abcdef.jsonl': '{"meta":{"format":"aish-memory-sync","version":1,"writer":"0123456789abcdef"}}\n',
    });
    const line = await w.refused(bare, bare, NOT_OURS);
    expect(line).toMatch(/its main branch was not started by aish: [0-9a-f]{7} "Initial commit" is not an aish commit/);
  });

  it('a new repository made with a README on the git host: refused (aish needs an empty one)', async () => {
    const w = world();
    const { bare } = w.project('hosted', 'main', { 'README.md': '# notes\n' });
    expect(await w.refused(bare, bare, NOT_OURS)).toMatch(/its main branch holds README\.md/);
  });

  it('a memory repository whose history once held other files (added, then removed): refused', async () => {
    const w = world();
    const bare = await w.started();
    const work = w.clone(bare);
    writeFileSync(join(work, 'deploy.sh'), 'echo deploy\n');
    gitAsAish(work, 'add', '-A');
    gitAsAish(work, 'commit', '-qm', 'aish memory: x +0');
    gitAsAish(work, 'rm', '-q', 'deploy.sh');
    gitAsAish(work, 'commit', '-qm', 'aish memory: x +0');
    git(work, 'push', '-q', 'origin', 'main');
    expect(await w.refused(bare, bare, NOT_OURS)).toMatch(/its main branch has held deploy\.sh, in [0-9a-f]{7} "aish memory: x \+0"/);
  });

  it('a hand-made commit of writer lines (a merge by hand) in a repository aish started is fine: its lines are received', async () => {
    const w = world();
    const bare = await w.started();
    const work = w.clone(bare);
    const header = { meta: { format: 'aish-memory-sync', version: 1, writer: 'bbbbbbbbbbbbbbbb', name: 'by hand' } };
    const line = {
      uid: '01JHANDMADE000000000000000',
      hlc: '1767225600000-0000',
      ts: '2026-01-01T00:00:00.000Z',
      kind: 'fact',
      content: 'pasted by hand',
    };
    writeFileSync(join(work, 'writers', 'bbbbbbbbbbbbbbbb.jsonl'), `${JSON.stringify(header)}\n${JSON.stringify(line)}\n`);
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', 'add a writer by hand');
    git(work, 'push', '-q', 'origin', 'main');
    const b = w.box(bare);
    const r = await w.aish(b, ['memory', 'sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/received 2 from 2 machines/);
  });

  it('a repository with a work tree on local disk (by path, by file:// URL, its .git, or new and empty): refused with the fix', async () => {
    const w = world();
    const { work } = w.project('app', 'main', { 'app.py': 'print(1)\n' });
    await w.refused(work, work, WORK_TREE);
    await w.refused(pathToFileURL(work).href, work, WORK_TREE);
    await w.refused(join(work, '.git'), work, WORK_TREE);
    const empty = join(w.root, 'empty-work');
    git(w.root, 'init', '-q', empty);
    await w.refused(empty, empty, WORK_TREE);
  });

  it('an empty bare repository whose HEAD names master is fine: two machines sync through it', async () => {
    const w = world();
    const bare = join(w.root, 'fresh.git');
    git(w.root, 'init', '-q', '--bare', '--initial-branch=master', bare);
    const a = w.box(bare);
    const b = w.box(bare);
    await w.aish(a, ['memory', 'add', 'fact', 'made on a']);
    const r1 = await w.aish(a, ['memory', 'sync']);
    expect(r1.code, r1.stderr).toBe(0);
    const r2 = await w.aish(b, ['memory', 'sync']);
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toMatch(/received 1 from 1 machine/);
    // And again, after each pushed: still ours.
    expect((await w.aish(a, ['memory', 'sync'])).code).toBe(0);
  });
});

describe('aish memory sync when the push fails', () => {
  it('says what git said (the remote’s own reason), exit 1, one line, nothing changed here', async () => {
    const w = world();
    const bare = join(w.root, 'small.git');
    git(w.root, 'init', '-q', '--bare', bare);
    git(w.root, '-C', bare, 'config', 'receive.maxInputSize', '10');
    const line = await w.refused(bare, bare, /memory sync: push to .*small\.git failed: pack exceeds maximum allowed size$/m);
    expect(line).not.toMatch(/failed to push some refs/);
  });
});

describe('aish memory sync reads the repository without attribute-driven programs', () => {
  it('a .gitattributes naming filter, diff and merge drivers that the user’s git config defines: none of them ever runs', async () => {
    const w = world();
    const marker = join(w.root, 'ran.txt');
    const mark = join(w.root, 'mark.sh');
    writeFileSync(mark, `#!/bin/sh\necho "$0 $*" >> ${JSON.stringify(marker)}\ncat\n`, { mode: 0o755 });
    const hooks = join(w.root, 'hooks');
    mkdirSync(hooks);
    for (const h of ['pre-commit', 'post-commit', 'pre-push', 'reference-transaction', 'post-checkout', 'post-merge', 'post-index-change'])
      writeFileSync(join(hooks, h), `#!/bin/sh\necho "hook ${h}" >> ${JSON.stringify(marker)}\n`, { mode: 0o755 });
    const attributes = join(w.root, 'global-attributes');
    writeFileSync(attributes, '* filter=lfs diff=evil merge=evil\n');
    // As `git lfs install` writes it, plus every other program a git config can name.
    const gitconfig = join(w.root, 'gitconfig');
    writeFileSync(
      gitconfig,
      [
        '[filter "lfs"]',
        `\tclean = ${mark} clean %f`,
        `\tsmudge = ${mark} smudge %f`,
        `\tprocess = ${mark} process`,
        '\trequired = true',
        '[diff "evil"]',
        `\ttextconv = ${mark} textconv`,
        `\tcommand = ${mark} diff-command`,
        '[merge "evil"]',
        `\tdriver = ${mark} merge %O %A %B`,
        '[core]',
        `\tfsmonitor = ${mark}`,
        `\thooksPath = ${hooks}`,
        `\tpager = ${mark} pager`,
        `\tattributesFile = ${attributes}`,
        '[diff]',
        `\texternal = ${mark} external`,
        '[gpg]',
        `\tprogram = ${mark}`,
        '[commit]',
        '\tgpgSign = true',
        '[log]',
        '\tshowSignature = true',
        '',
      ].join('\n'),
    );
    const env = { GIT_CONFIG_GLOBAL: gitconfig };
    const bare = join(w.root, 'memory.git');
    git(w.root, 'init', '-q', '--bare', bare);
    const a = w.box(bare);
    const b = w.box(bare);
    const sync = (x: typeof a) =>
      runAish(['--config', x.config, '--data-dir', x.data, 'memory', 'sync'], { home: x.home, env, timeoutMs: 60_000 });
    await w.aish(a, ['memory', 'add', 'fact', 'from a']);
    expect((await sync(a)).code).toBe(0);
    // Someone who can push to the repository adds attributes, in a commit that passes for aish's.
    const work = join(w.root, 'evil');
    git(w.root, 'clone', '-q', bare, work);
    writeFileSync(join(work, '.gitattributes'), '* filter=lfs diff=evil merge=evil\nwriters/*.jsonl filter=lfs merge=evil\n');
    git(work, 'add', '-A');
    gitAsAish(work, 'commit', '-qm', 'aish memory: evil +0');
    git(work, 'push', '-q', 'origin', 'HEAD:main');

    await w.aish(b, ['memory', 'add', 'fact', 'from b']);
    const rb = await sync(b);
    expect(rb.code, rb.stderr).toBe(0);
    expect(rb.stdout).toMatch(/sent 1, received 1 from 1 machine/);
    await w.aish(a, ['memory', 'add', 'fact', 'again from a']);
    const ra = await sync(a);
    expect(ra.code, ra.stderr).toBe(0);
    expect(ra.stdout).toMatch(/sent 1, received 1 from 1 machine/);
    expect((await sync(b)).stdout).toMatch(/received 1 from 1 machine/);
    let ran = '';
    try {
      ran = readFileSync(marker, 'utf8');
    } catch {
      // never written: nothing ran
    }
    expect(ran).toBe('');
  });
});
