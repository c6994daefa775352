/**
 * V8's compile cache (Node 22.1+, bin/aish.cjs): kept in aish's own cache directory, 0700, written
 * by a session that ends cleanly and by a REPL that is killed after its first answer, and never in
 * a directory that is not aish's own (a link in its place).
 */
import module from 'node:module';
import { mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
// Without the suite's shared cache (test/helpers/run-cli.ts): this checks the launcher's own.
const env = () => ({ ...fake.env(), NODE_COMPILE_CACHE: undefined });
const start = ptySessions(env);
const supported = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

const cacheDir = (home: string) => join(home, '.cache', 'aish', 'compile-cache');
const files = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);

describe.skipIf(!supported)('the compile cache', () => {
  it('is written into ~/.cache/aish/compile-cache, 0700, by a session that ends', async () => {
    const home = tmpDir();
    const r = await runAish(['-p', 'hello'], { home, env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(statSync(cacheDir(home)).mode & 0o777).toBe(0o700);
    expect(files(cacheDir(home)).length).toBeGreaterThan(0);
  });

  it('is written by a REPL that is killed after its first answer', async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('›');
    s.write('what is up\r');
    await s.waitFor('echo: what is up');
    s.pty.kill('SIGKILL');
    await s.exited;
    expect(files(cacheDir(home)).length).toBeGreaterThan(0);
  });

  it('is not used when its place holds a link to another directory', async () => {
    const home = tmpDir();
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(join(home, '.cache', 'aish'), { recursive: true });
    symlinkSync(elsewhere, cacheDir(home));
    const r = await runAish(['-p', 'hello'], { home, env: env() });
    expect(r).toMatchObject({ code: 0, stdout: 'echo: hello\n' });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
