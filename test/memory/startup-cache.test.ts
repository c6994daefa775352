/** The start-up selection cache: used only for the file exactly as it was, and the request it answered. */
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preloadMemory, type PreloadRequest } from '../../src/memory/preload';
import { cachePath, readStartupCache } from '../../src/memory/startup-cache';
import { tmpDir } from '../helpers/tmp';

const line = (id: number, content: string) => JSON.stringify({ id, ts: `2026-01-0${id}T00:00:00Z`, kind: 'fact', content });

function fixture(): PreloadRequest {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, [line(1, 'alpha'), line(2, 'beta')].join('\n') + '\n');
  return { path, maxChars: 2000, pruneOlderThanDays: undefined, cwd: '/' };
}

describe('start-up cache', () => {
  it('a read writes it (0600); the same file and request use it; any change to the file reads it again', async () => {
    const req = fixture();
    const first = await preloadMemory(req);
    expect(first.ok && first.injected.map((i) => i.content)).toEqual(['beta', 'alpha']);
    expect(statSync(cachePath(req.path)).mode & 0o777).toBe(0o600);
    expect(readStartupCache(req)).toEqual(first);
    expect(readStartupCache({ ...req, maxChars: 10 })).toBeUndefined(); // another budget
    expect(readStartupCache({ ...req, cwd: '/elsewhere' })).toBeUndefined(); // another directory's scopes

    appendFileSync(req.path, line(3, 'gamma') + '\n'); // another aish, or a hand edit
    expect(readStartupCache(req)).toBeUndefined();
    const second = await preloadMemory(req);
    expect(second.ok && second.injected.map((i) => i.content)).toEqual(['gamma', 'beta', 'alpha']);
    expect(readStartupCache(req)).toEqual(second);

    // A same-size edit in place (inode kept) still changes the mtime.
    writeFileSync(req.path, readFileSync(req.path, 'utf8').replace('alpha', 'ALPHA'));
    const third = await preloadMemory(req);
    expect(third.ok && third.injected.map((i) => i.content)).toContain('ALPHA');
  });

  it('is never used or written with pruneOlderThanDays (it depends on today), and a broken cache is ignored', async () => {
    const req = { ...fixture(), pruneOlderThanDays: 30 };
    await preloadMemory(req);
    expect(existsSync(cachePath(req.path))).toBe(false);
    const plain = { ...req, pruneOlderThanDays: undefined };
    writeFileSync(cachePath(plain.path), '{"v":1,"key":');
    const r = await preloadMemory(plain);
    expect(r.ok && r.injected).toHaveLength(2);
    expect(readStartupCache(plain)).toEqual(r);
  });
});
