/** configCacheDir: a private directory of the user's, or no cache at all. */
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configCacheDir } from '../../src/config/config-cache';
import { tmpDir } from '../helpers/tmp';

describe('configCacheDir', () => {
  it('creates <XDG_CACHE_HOME>/aish/config-cache 0700, and makes an existing one private again', () => {
    const base = tmpDir();
    const dir = configCacheDir({ XDG_CACHE_HOME: base });
    expect(dir).toBe(join(base, 'aish', 'config-cache'));
    expect(statSync(dir as string).mode & 0o777).toBe(0o700);
    chmodSync(dir as string, 0o777);
    expect(configCacheDir({ XDG_CACHE_HOME: base })).toBe(dir);
    expect(statSync(dir as string).mode & 0o777).toBe(0o700);
  });

  it('a link in its place, or a file, means no cache', () => {
    const base = tmpDir();
    const elsewhere = tmpDir();
    mkdirSync(join(base, 'aish'));
    symlinkSync(elsewhere, join(base, 'aish', 'config-cache'));
    expect(configCacheDir({ XDG_CACHE_HOME: base })).toBe(false);
    const other = tmpDir();
    mkdirSync(join(other, 'aish'));
    writeFileSync(join(other, 'aish', 'config-cache'), '');
    expect(configCacheDir({ XDG_CACHE_HOME: other })).toBe(false);
  });
});
