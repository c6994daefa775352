/** The pure parts of checkpoints: the commit message, the list rows, which checkpoint an argument names. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeCheckpoint, formatCheckpointLines, formatRestore, resolveTarget } from '../../src/checkpoints/format';
import { gitEnv, joinZ, splitZ } from '../../src/checkpoints/git';
import { parentIgnores, rebaseIgnore } from '../../src/checkpoints/ignores';
import { formatMessage, parseLog, parseMessage } from '../../src/checkpoints/message';
import { ignorePattern, inside, shadowDirFor } from '../../src/checkpoints/shadow';
import type { Checkpoint } from '../../src/checkpoints/types';
import { tmpDir } from '../helpers/tmp';

const now = new Date('2026-05-01T12:00:00Z');
const cp = (n: number, extra: Partial<Checkpoint> = {}): Checkpoint => {
  const commit = `${String(n).repeat(8).slice(0, 8)}${'a'.repeat(32)}`;
  return { id: commit.slice(0, 8), commit, ts: new Date(now.getTime() - n * 60_000).toISOString(), label: `cmd ${n}`, dir: '/w', ...extra };
};

describe('checkpoint commit messages', () => {
  it('round-trip label, step, time, directory and skipped count; multi-line labels keep their lines', () => {
    const rec = { ts: '2026-05-01T11:58:00.000Z', label: 'cat > f <<EOF\nhello\nEOF', step: 'step 3/8', dir: '/home/me/app', skipped: 2 };
    const msg = formatMessage(rec);
    expect(msg.split('\n')[0]).toBe('step 3/8: cat > f <<EOF hello EOF');
    expect(parseMessage('0123456789abcdef', msg)).toEqual({ id: '01234567', commit: '0123456789abcdef', ...rec });
    const bare = parseMessage('ffffffff00', formatMessage({ ts: rec.ts, label: 'x', dir: '/' }));
    expect(bare).toEqual({ id: 'ffffffff', commit: 'ffffffff00', ts: rec.ts, label: 'x', dir: '/' });
  });

  it('anything else is not a checkpoint', () => {
    expect(parseMessage('ab', 'a hand-made commit\n')).toBeNull();
    expect(parseMessage('ab', 'x\n\naish-checkpoint {broken\n')).toBeNull();
    expect(parseMessage('ab', 'x\n\naish-checkpoint {"ts":1,"label":"l","dir":"/"}\n')).toBeNull();
  });

  it('parses `git log -z --format=%H%x00%B`, newest first, skipping foreign commits', () => {
    const a = formatMessage({ ts: '2026-05-01T11:00:00Z', label: 'a', dir: '/w' });
    const b = formatMessage({ ts: '2026-05-01T11:05:00Z', label: 'b', dir: '/w' });
    const out = `${'b'.repeat(40)}\0${b}\0${'c'.repeat(40)}\0not ours\n\0${'a'.repeat(40)}\0${a}`;
    expect(parseLog(out).map((c) => [c.id, c.label])).toEqual([
      ['bbbbbbbb', 'b'],
      ['aaaaaaaa', 'a'],
    ]);
    expect(parseLog('')).toEqual([]);
  });
});

describe('checkpoint lists', () => {
  it('rows show position, id, age, step and the command on one line, cut to fit', () => {
    const list = [cp(1, { step: 'step 2/8', label: 'rm -rf build\n&& make' }), cp(2, { skipped: 3, label: 'x'.repeat(80) })];
    expect(formatCheckpointLines(list, now)).toEqual([
      `1  11111111   1m  step 2/8  rm -rf build && make`,
      `2  22222222   2m  -         ${'x'.repeat(59)}… (3 files skipped)`,
    ]);
    expect(describeCheckpoint(list[0]!, now)).toBe('11111111, 1m ago, before step 2/8 ("rm -rf build && make")');
    expect(describeCheckpoint(cp(5), now)).toBe('55555555, 5m ago, before "cmd 5"');
  });

  it('an argument is a position (1 = newest, up to 3 digits) or an id prefix of 4+ hex digits', () => {
    const list = [cp(1), cp(2), { ...cp(3), commit: `1111${'b'.repeat(36)}`, id: '1111bbbb' }];
    expect(resolveTarget(list, undefined, 'h')).toBe(list[0]);
    expect(resolveTarget(list, '', 'h')).toBe(list[0]);
    expect(resolveTarget(list, '2', 'h')).toBe(list[1]);
    expect(resolveTarget(list, '2222', 'h')).toBe(list[1]);
    expect(resolveTarget(list, '1111B', 'h')).toBe(list[2]);
    expect(() => resolveTarget(list, '1111', 'h')).toThrow('checkpoint id 1111 is ambiguous — give more digits (see h)');
    expect(() => resolveTarget(list, '4', 'h')).toThrow('no checkpoint 4 — there are 3 (see h)');
    expect(() => resolveTarget(list, '0', 'h')).toThrow('no checkpoint 0 — there are 3 (see h)');
    expect(() => resolveTarget(list, 'abcd', 'h')).toThrow('no checkpoint abcd (see h)');
    expect(() => resolveTarget(list, 'HEAD~1', 'h')).toThrow('"HEAD~1" is neither a position (1 = newest) nor a checkpoint id (see h)');
  });

  it('a restore says what it did and how to undo it', () => {
    const r = {
      checkpoint: cp(3, { step: 'step 1/2' }),
      changed: 5,
      written: 4,
      removed: 1,
      keptLarge: 1,
      modes: 0,
      dirs: 0,
      before: cp(0),
    };
    expect(formatRestore(r, '~/app', now, ':restore')).toBe(
      'restored ~/app to checkpoint 33333333, 3m ago, before step 1/2 ("cmd 3"): 4 files written back, 1 file removed; 1 file over the size cap left as they are — undo with :restore (the state before is checkpoint 00000000)',
    );
    expect(formatRestore({ ...r, changed: 0 }, '~/app', now, ':restore')).toBe(
      '~/app is already as at checkpoint 33333333, 3m ago, before step 1/2 ("cmd 3"); nothing changed',
    );
  });

  it('a restore names what the checkpoint left out, by reason, and the modes and directories it set back', () => {
    const left = {
      ignored: { n: 4, paths: ['build/', '.env', 'x.log'] },
      large: { n: 1, paths: ['big.bin'] },
      nested: { n: 1, paths: ['vendor/lib'] },
      unreadable: { n: 1, paths: ['secret'] },
    };
    const r = { checkpoint: cp(3, { left }), changed: 4, written: 1, removed: 0, keptLarge: 0, modes: 2, dirs: 1, before: cp(0) };
    expect(formatRestore(r, '~/app', now, ':restore')).toBe(
      'restored ~/app to checkpoint 33333333, 3m ago, before "cmd 3": 1 file written back, 0 files removed, permissions set back on 2 paths, 1 empty directory recreated' +
        ' — not in the checkpoint, so not restored: 4 ignored (build/, .env, x.log, …); 1 over the size cap (big.bin); 1 in a nested repository (vendor/lib); 1 unreadable (secret)' +
        ' — undo with :restore (the state before is checkpoint 00000000)',
    );
  });
});

describe('shadow repository helpers', () => {
  it('one shadow per real directory; paths become literal anchored ignore patterns', () => {
    expect(shadowDirFor('/d', '/w')).toMatch(/^\/d\/[0-9a-f]{16}$/);
    expect(shadowDirFor('/d', '/w')).not.toBe(shadowDirFor('/d', '/w2'));
    expect(inside('/w', '/w/data/cp')).toBe('data/cp');
    expect(inside('/w', '/elsewhere')).toBeNull();
    expect(ignorePattern('data/a*b?[c] ')).toBe('/data/a\\*b\\?\\[c\\]\\ /');
  });

  it("git runs without the user's GIT_* variables or global config", () => {
    const env = gitEnv({
      PATH: '/bin',
      HOME: '/h',
      GIT_DIR: '/x/.git',
      GIT_WORK_TREE: '/x',
      GIT_INDEX_FILE: 'i',
      GIT_CONFIG_PARAMETERS: "'core.hooksPath'='/evil'",
    });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_WORK_TREE).toBeUndefined();
    expect(env.GIT_INDEX_FILE).toBeUndefined();
    expect(env.GIT_CONFIG_PARAMETERS).toBeUndefined();
    expect(env).toMatchObject({ PATH: '/bin', HOME: '/h', GIT_CONFIG_NOSYSTEM: '1' });
    expect(splitZ(joinZ(['a', 'b c']))).toEqual(['a', 'b c']);
  });
});

describe('.gitignore rules of the directories above the work tree', () => {
  it('patterns for any depth are kept; anchored ones are rebased when their leading parts lead to the tree', () => {
    const text = [
      '# comment',
      'node_modules/',
      '*.log',
      '!keep.log',
      '/build',
      '/packages/app/dist/',
      'packages/*/coverage',
      'packages/other/x',
      'packages/app',
      '**/tmp',
      'packages/**/cache/',
      '!/packages/app/dist/keep.txt',
      'trailing   ',
      '',
    ].join('\n');
    expect(rebaseIgnore(text, ['packages', 'app'])).toEqual([
      'node_modules/',
      '*.log',
      '!keep.log',
      '/dist/',
      '/coverage',
      '/**/tmp',
      '/**/cache/',
      '!/dist/keep.txt',
      'trailing',
    ]);
    expect(rebaseIgnore('/[a-c]pp/out\n/ap?/lib\n/a\\*/x\n', ['app'])).toEqual(['/out', '/lib']);
  });

  it('reads the .gitignore files from the nearest directory with a .git down to the tree, outermost first', () => {
    const base = tmpDir();
    mkdirSync(join(base, 'repo', '.git'), { recursive: true });
    mkdirSync(join(base, 'repo', 'packages', 'app'), { recursive: true });
    writeFileSync(join(base, '.gitignore'), 'outside-the-repo\n');
    writeFileSync(join(base, 'repo', '.gitignore'), 'node_modules/\n/packages/app/dist\n');
    writeFileSync(join(base, 'repo', 'packages', '.gitignore'), '!node_modules/\n');
    expect(parentIgnores(join(base, 'repo', 'packages', 'app'))).toEqual(['node_modules/', '/dist', '!node_modules/']);
    expect(parentIgnores(join(base, 'repo'))).toEqual([]);
    expect(parentIgnores(base)).toEqual([]);
  });
});
