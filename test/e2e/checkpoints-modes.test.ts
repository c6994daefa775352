/**
 * What git does not keep, kept by checkpoints: permission bits (a 0600 file comes back 0600, a 0444
 * one 0444, never wider), empty directories (recreated), and what a snapshot left out (ignored,
 * over the size cap, nested repositories, unreadable) named by the restore instead of passed over.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { formatRestore } from '../../src/checkpoints/format';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const mode = (p: string) => statSync(p).mode & 0o7777;
const isRoot = process.getuid?.() === 0;

function tree(): { base: string; work: string; data: string } {
  const base = tmpDir('aish-cpm-');
  const work = join(base, 'work');
  mkdirSync(join(work, 'private'), { recursive: true });
  writeFileSync(join(work, '.gitignore'), '.env\nbuild/\n');
  writeFileSync(join(work, 'secret.txt'), 'token\n', { mode: 0o600 });
  writeFileSync(join(work, 'readonly.txt'), 'frozen\n');
  chmodSync(join(work, 'readonly.txt'), 0o444);
  writeFileSync(join(work, 'plain.txt'), 'plain\n');
  writeFileSync(join(work, 'run.sh'), '#!/bin/sh\n');
  chmodSync(join(work, 'run.sh'), 0o750);
  writeFileSync(join(work, 'private', 'key'), 'k\n', { mode: 0o600 });
  chmodSync(join(work, 'private'), 0o700);
  return { base, work, data: checkpointsRoot(join(base, 'data')) };
}

describe('checkpoints keep modes', () => {
  it('a rewritten 0600 file comes back 0600, a 0444 one 0444, a deleted 0700 directory 0700', async () => {
    const { work, data } = tree();
    const cps = new Checkpoints(data, work);
    await cps.snapshot('step');
    chmodSync(join(work, 'readonly.txt'), 0o644);
    writeFileSync(join(work, 'readonly.txt'), 'thawed\n');
    writeFileSync(join(work, 'secret.txt'), 'changed\n');
    rmSync(join(work, 'secret.txt'));
    writeFileSync(join(work, 'secret.txt'), 'recreated world-readable\n', { mode: 0o644 });
    rmSync(join(work, 'private'), { recursive: true });
    const r = await cps.restore();
    expect(readFileSync(join(work, 'secret.txt'), 'utf8')).toBe('token\n');
    expect(mode(join(work, 'secret.txt'))).toBe(0o600);
    expect(mode(join(work, 'readonly.txt'))).toBe(0o444);
    expect(mode(join(work, 'private'))).toBe(0o700);
    expect(mode(join(work, 'private', 'key'))).toBe(0o600);
    expect(mode(join(work, 'run.sh'))).toBe(0o750);
    expect(mode(join(work, 'plain.txt'))).toBe(0o644);
    expect(r.written).toBe(3);
  });

  it('a mode-only change (0600 opened to 0644, content the same) is set back and counted', async () => {
    const { work, data } = tree();
    const cps = new Checkpoints(data, work);
    await cps.snapshot('chmod');
    chmodSync(join(work, 'secret.txt'), 0o644);
    chmodSync(join(work, 'private'), 0o755);
    const r = await cps.restore();
    expect(mode(join(work, 'secret.txt'))).toBe(0o600);
    expect(mode(join(work, 'private'))).toBe(0o700);
    expect(r).toMatchObject({ written: 0, removed: 0, modes: 2 });
    expect(formatRestore(r, '~/w', new Date(), ':restore')).toContain(
      '0 files written back, 0 files removed, permissions set back on 2 paths',
    );
  });

  it('empty directories come back, with their modes', async () => {
    const { work, data } = tree();
    mkdirSync(join(work, 'empty'));
    mkdirSync(join(work, 'deep', 'er'), { recursive: true });
    chmodSync(join(work, 'empty'), 0o711);
    const cps = new Checkpoints(data, work);
    await cps.snapshot('rm -r empty deep');
    rmSync(join(work, 'empty'), { recursive: true });
    rmSync(join(work, 'deep'), { recursive: true });
    const r = await cps.restore();
    expect(existsSync(join(work, 'deep', 'er'))).toBe(true);
    expect(mode(join(work, 'empty'))).toBe(0o711);
    expect(r.dirs).toBe(2);
    expect(formatRestore(r, '~/w', new Date(), ':restore')).toContain('2 empty directories recreated');
  });
});

describe('a restore names what the checkpoint could not hold', () => {
  it('ignored files, files over the cap, nested repositories and unreadable files, by reason with paths', async () => {
    const { base, work, data } = tree();
    writeFileSync(join(work, '.env'), 'DB_PASSWORD=x\n');
    mkdirSync(join(work, 'build'));
    writeFileSync(join(work, 'build', 'out.js'), 'x\n');
    writeFileSync(join(work, 'big.bin'), Buffer.alloc(2048));
    mkdirSync(join(work, 'vendor', 'lib'), { recursive: true });
    execFileSync('git', ['init', '-q', join(work, 'vendor', 'lib')], { env: { PATH: process.env.PATH, HOME: base } });
    writeFileSync(join(work, 'vendor', 'lib', 'x.c'), 'int x;\n');
    writeFileSync(join(work, 'locked'), 'no\n', { mode: 0o000 });
    const cps = new Checkpoints(data, work, { maxFileBytes: 1024 });
    const cp = await cps.snapshot('rm -rf .');
    expect(cp!.left).toMatchObject({
      ignored: { n: 2, paths: expect.arrayContaining(['.env', 'build/']) as unknown },
      large: { n: 1, paths: ['big.bin'] },
      nested: { n: 1, paths: ['vendor/lib'] },
      ...(isRoot ? {} : { unreadable: { n: 1, paths: ['locked'] } }),
    });
    for (const p of ['.env', 'build', 'big.bin', 'vendor', 'secret.txt']) rmSync(join(work, p), { recursive: true });
    const r = await cps.restore();
    const line = formatRestore(r, '~/w', new Date(), ':restore');
    expect(line).toMatch(
      /not in the checkpoint, so not restored: 2 ignored \((\.env, build\/|build\/, \.env)\); 1 over the size cap \(big\.bin\); 1 in a nested repository \(vendor\/lib\)/,
    );
    expect(existsSync(join(work, 'secret.txt'))).toBe(true);
  });

  it('aish checkpoints restore --yes says so on its one line', async () => {
    const home = tmpDir('aish-cpm-cli-');
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, '.gitignore'), '.env\n');
    writeFileSync(join(work, '.env'), 'A=1\n');
    writeFileSync(join(work, 'secret.txt'), 'token\n', { mode: 0o600 });
    const cps = new Checkpoints(checkpointsRoot(join(home, '.local', 'share', 'aish')), work);
    await cps.snapshot('rm secret.txt .env');
    rmSync(join(work, 'secret.txt'));
    rmSync(join(work, '.env'));
    const r = await runAish(['checkpoints', 'restore', '--yes'], { home, cwd: work });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^restored ~\/work to checkpoint .*: 1 file written back, 0 files removed — not in the checkpoint, so not restored: 1 ignored \(\.env\) — undo with/,
    );
    expect(mode(join(work, 'secret.txt'))).toBe(0o600);
  });
});
