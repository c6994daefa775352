/**
 * config.ts compiled once and cached where only its owner can read or write: never in a shared
 * temporary directory (jiti's default), where the keys in it would be readable by every user and a
 * planted file would run as the user.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('the compiled config cache', () => {
  it('is kept under the XDG cache, 0700, and nothing of the config lands in TMPDIR', async () => {
    const home = tmpDir();
    const tmp = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, '// key: sk-proj-CONFIGCACHE0123456789abcdef\nexport default { context: { maxTokens: 4000 } };\n');
    const env = { TMPDIR: tmp };
    const first = await runAish(['--config', cfg, 'memory', 'path'], { home, env });
    expect(first.code).toBe(0);
    const dir = join(home, '.cache', 'aish', 'config-cache');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const cached = readdirSync(dir);
    expect(cached).toHaveLength(1);
    expect(readFileSync(join(dir, cached[0]!), 'utf8')).toContain('maxTokens');
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(join(tmp, 'jiti'))).toBe(false);

    // A changed config is compiled again (the cache is keyed by its text), not served stale.
    writeFileSync(cfg, "export default { context: { maxTokens: 'lots' } };\n");
    const second = await runAish(['--config', cfg, 'memory', 'path'], { home, env });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('context.maxTokens');
  });
});
