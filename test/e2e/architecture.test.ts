/**
 * The layer rules of src/ hold, checked the way a developer runs them (`npm run lint:deps`, the
 * dependency-cruiser CLI with .dependency-cruiser.cjs): no import cycles, each layer imports only
 * downward, Ink and React only in front ends. The fixtures prove each rule fires when broken.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const made: string[] = [];

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Runs the checker on `src/` under `base`: its exit code and the rule names it reports. */
function cruise(base: string): Promise<{ code: number; violations: string[] }> {
  const bin = join(root, 'node_modules', '.bin', 'depcruise');
  const args = ['src', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'err'];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd: base }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: unknown }).code) : 0;
      // One entry per violation: `  error RULE: FROM → TO` (a cycle lists its path over several
      // lines, ending where it started), then a summary line.
      const violations = [...stdout.matchAll(/^\s*error (\S+): (\S+) →\s*(\S+)/gm)].map((m) => `${m[1]} ${m[2]} -> ${m[3]}`);
      if (!/no dependency violations found|dependency violations/.test(stdout))
        reject(new Error(`depcruise did not report (exit ${code}): ${stdout}${stderr}`));
      else resolve({ code, violations });
    });
  });
}

/** A throwaway tree with src/ files; node_modules and tsconfig point at ours so imports resolve. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aish-layers-'));
  made.push(dir);
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  symlinkSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe.concurrent('architecture', () => {
  it('src/ has no cycles, no upward imports and no UI imports outside frontends/', async () => {
    expect(await cruise(root)).toEqual({ code: 0, violations: [] });
  });

  it('an upward import (core → commands) is caught', async () => {
    const dir = fixture({
      'src/core/engine.ts': "import { x } from '../commands/help';\nexport const y = x;\n",
      'src/commands/help.ts': 'export const x = 1;\n',
    });
    const r = await cruise(dir);
    expect(r.code).not.toBe(0);
    expect(r.violations).toEqual(['layer-core src/core/engine.ts -> src/commands/help.ts']);
  });

  it('an import cycle inside one layer is caught', async () => {
    const dir = fixture({
      'src/memory/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/memory/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const r = await cruise(dir);
    expect(r.code).not.toBe(0);
    expect(r.violations.length).toBeGreaterThan(0);
    for (const line of r.violations) expect(line).toMatch(/^no-circular src\/memory\/[ab]\.ts -> src\/memory\/[ab]\.ts$/);
  });

  it('Ink below frontends/ is caught; in frontends/ it is fine', async () => {
    const dir = fixture({
      'src/core/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
      'src/frontends/repl/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
    });
    const r = await cruise(dir);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatch(/^ui-only-in-frontends src\/core\/view\.ts -> .*node_modules\/ink\//);
  });
});
