/**
 * The architecture rules of src/ hold: no import cycles, each layer imports only downward, Ink and
 * React only in front ends (dependency-cruiser, rules in .dependency-cruiser.cjs), and no source
 * file grows past 300 lines. The fixtures prove each rule fires when it is broken.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as IConfiguration;
const made: string[] = [];

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Rule names that fire for `src/` under `base`. */
async function violations(base: string): Promise<string[]> {
  const tsConfig = { fileName: join(root, 'tsconfig.json') };
  const r = await cruise(['src'], { ruleSet: config, validate: true, ...config.options, tsConfig, baseDir: base, outputType: 'json' });
  const out = typeof r.output === 'string' ? JSON.parse(r.output) : r.output;
  return (out.summary.violations as Array<{ rule: { name: string }; from: string; to: string }>).map((v) => `${v.rule.name} ${v.from} -> ${v.to}`);
}

/** A throwaway tree with src/ files; node_modules points at ours so `ink` resolves. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aish-layers-'));
  made.push(dir);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('architecture', () => {
  it('src/ has no cycles, no upward imports and no UI imports outside frontends/', async () => {
    expect(await violations(root)).toEqual([]);
  });

  it('an upward import (core → commands) is caught', async () => {
    const dir = fixture({
      'src/core/engine.ts': "import { x } from '../commands/help';\nexport const y = x;\n",
      'src/commands/help.ts': 'export const x = 1;\n',
    });
    expect(await violations(dir)).toEqual(['layer-core src/core/engine.ts -> src/commands/help.ts']);
  });

  it('an import cycle inside one layer is caught', async () => {
    const dir = fixture({
      'src/memory/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/memory/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const v = await violations(dir);
    expect(v.length).toBeGreaterThan(0);
    for (const line of v) expect(line).toMatch(/^no-circular src\/memory\/[ab]\.ts -> src\/memory\/[ab]\.ts$/);
  });

  it('Ink below frontends/ is caught; in frontends/ it is fine', async () => {
    const dir = fixture({
      'src/core/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
      'src/frontends/repl/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
    });
    const v = await violations(dir);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatch(/^ui-only-in-frontends src\/core\/view\.ts -> .*node_modules\/ink\//);
  });

  it('no source file is over 300 lines', () => {
    const long: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(n) && readFileSync(p, 'utf8').split('\n').length > 301) long.push(p.slice(root.length));
      }
    };
    walk(join(root, 'src'));
    expect(long).toEqual([]);
  });
});
