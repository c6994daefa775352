/**
 * `aish memory add KIND TEXT…` goes through the launcher's quick path (dist/memory-add.cjs,
 * src/frontends/cli/quick-add.ts); the full CLI (dist/cli.js) must give exactly the same results:
 * output, exit status and the memory file, for good and bad input alike.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';
import { runAish, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const FULL = join(ROOT, 'dist', 'cli.js');

/** The items of a memory file, without timestamps and the header's creation time. */
function items(home: string): unknown[] {
  const p = join(home, '.local', 'share', 'aish', 'memory.jsonl');
  if (!existsSync(p)) return [];
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { unparsed: l };
      }
    })
    .map(({ ts: _ts, meta, ...rest }) => (meta ? { meta: { ...(meta as object), created: undefined } } : rest));
}

/** A result with the home's path written as ~ (the two runs have different homes). */
const same = (r: CliResult, home: string) => ({
  code: r.code,
  stdout: r.stdout.replaceAll(home, '~'),
  stderr: r.stderr.replaceAll(home, '~'),
});

/** Run the same adds in two fresh homes, one per path; compare every result and the files. */
async function bothWays(adds: string[][], prepare: (home: string) => void = () => {}) {
  const [quick, full] = [tmpDir(), tmpDir()];
  prepare(quick);
  prepare(full);
  for (const args of adds) {
    const q = await runAish(['memory', 'add', ...args], { home: quick });
    const f = await runAish(['memory', 'add', ...args], { home: full, bin: FULL });
    expect(same(q, quick), `aish memory add ${args.join(' ')}`).toEqual(same(f, full));
  }
  expect(items(quick)).toEqual(items(full));
  return quick;
}

describe('aish memory add: the quick path and the full CLI agree', () => {
  it('adds, duplicates, --project, secrets', async () => {
    const home = await bothWays([
      ['fact', 'the', 'build', 'uses', 'pnpm'],
      ['pref', 'answers', 'in', 'British', 'English', '--project'],
      ['fact', 'the', 'build', 'uses', 'pnpm'],
      ['context', 'deploy', 'key', 'is', 'AKIAIOSFODNN7EXAMPLE', 'for', 'staging'],
      ['fact', 'café ☕ and 日本語'],
    ]);
    expect(items(home)).toHaveLength(5); // header + 4 (the duplicate was not added)
  });

  it('bad input: an unknown kind, blank text, a kind that looks like an option', async () => {
    await bothWays([
      ['bogus', 'text'],
      ['fact', '   '],
      ['fact', ''],
      ['--project', 'fact', 'x'],
      ['fact', 'x', '--nope'],
    ]);
  });

  it('memory turned off in the config, and a broken config', async () => {
    const cfg = (text: string) => (home: string) => {
      mkdirSync(join(home, '.config', 'aish'), { recursive: true });
      writeFileSync(join(home, '.config', 'aish', 'config.ts'), text);
    };
    await bothWays([['fact', 'x']], cfg('export default { memory: false };'));
    await bothWays([['fact', 'x']], cfg('export default { this is not valid'));
  });

  it('a memory file with a broken line warns the same way', async () => {
    await bothWays([['fact', 'next item']], (home) => {
      mkdirSync(join(home, '.local', 'share', 'aish'), { recursive: true });
      writeFileSync(
        join(home, '.local', 'share', 'aish', 'memory.jsonl'),
        '{"id":1,"ts":"2025-01-01T00:00:00Z","kind":"fact","content":"a"}\n{"id": 2, broken\n',
      );
    });
  });

  it('the plain form takes the quick path; any other option goes to the full CLI', async () => {
    const home = tmpDir();
    const preload = join(home, 'modules.cjs');
    // Lists the CommonJS files the process loaded, at exit.
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(join(home, 'loaded.json'))}, JSON.stringify(Object.keys(require.cache))));`,
    );
    const loaded = async (args: string[]) => {
      const r = await runAish(args, { home, env: { NODE_OPTIONS: `--require ${preload}` } });
      expect(r.stderr).toBe('');
      return (JSON.parse(readFileSync(join(home, 'loaded.json'), 'utf8')) as string[]).some((f) => f.endsWith('memory-add.cjs'));
    };
    expect(await loaded(['memory', 'add', 'fact', 'quick', 'one'])).toBe(true);
    expect(await loaded(['memory', 'add', 'fact', 'quick', 'two', '--project'])).toBe(true);
    expect(await loaded(['memory', 'list'])).toBe(false);
    expect(await loaded(['--data-dir', join(home, '.local', 'share', 'aish'), 'memory', 'add', 'fact', 'full', 'path'])).toBe(false);
  });
});
