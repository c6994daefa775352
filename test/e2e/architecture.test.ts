/**
 * The layer rules of src/ hold, checked the way a developer runs them (`npm run lint:deps`, the
 * dependency-cruiser CLI with .dependency-cruiser.cjs): no import cycles, each layer imports only
 * downward, Ink and React only in front ends, every import resolves. A fixture tree breaks every
 * rule once, to show each one fires, and holds the allowed imports, to show they do not.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const configPath = join(root, '.dependency-cruiser.cjs');
const made: string[] = [];

afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Runs the checker on `src/` under `base`: its exit code and the violations it reports. */
function cruise(base: string): Promise<{ code: number; violations: string[] }> {
  const bin = join(root, 'node_modules', '.bin', 'depcruise');
  const args = ['src', '--config', configPath, '--output-type', 'err'];
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd: base }, (err, stdout, stderr) => {
      const code = err ? Number((err as { code?: unknown }).code) : 0;
      // One entry per violation: `  error RULE: FROM → TO` (a cycle lists its path over several
      // lines, ending where it started), then a summary line.
      const violations = [...stdout.matchAll(/^\s*error (\S+): (\S+) →\s*(\S+)/gm)].map((m) => `${m[1]} ${m[2]} -> ${m[3]}`);
      if (!/no dependency violations found|dependency violations/.test(stdout))
        reject(new Error(`depcruise did not report (exit ${code}): ${stdout}${stderr}`));
      else resolve({ code, violations: violations.sort() });
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

const imports = (...paths: string[]): string =>
  paths.map((p, i) => `import { x as x${i} } from '${p}';\n`).join('') + 'export const x = 1;\n';

/** One upward (or sideways) import per layer rule: the folder, and the folder it must not use. */
const UPWARD: Record<string, string> = {
  util: 'config',
  config: 'broker',
  broker: 'sessions',
  sessions: 'memory',
  memory: 'context',
  context: 'tools',
  tools: 'checkpoints',
  checkpoints: 'sessions',
  core: 'commands',
  commands: 'input',
  input: 'frontends',
};

const files: Record<string, string> = {
  // The allowed direction, one import per edge of the order: none of these is reported.
  'src/util/leaf.ts': imports(),
  'src/config/leaf.ts': imports('../util/leaf'),
  'src/broker/leaf.ts': imports('../config/leaf', '../util/leaf'),
  'src/sessions/leaf.ts': imports('../broker/leaf'),
  'src/memory/leaf.ts': imports('../sessions/leaf', '../broker/leaf', '../config/leaf'),
  'src/context/leaf.ts': imports('../memory/leaf', '../broker/leaf'),
  'src/tools/leaf.ts': imports('../memory/leaf', '../broker/leaf', '../config/leaf'),
  'src/checkpoints/leaf.ts': imports('../util/leaf', '../config/leaf'),
  'src/core/leaf.ts': imports('../context/leaf', '../tools/leaf', '../checkpoints/leaf', '../sessions/leaf'),
  'src/commands/leaf.ts': imports('../core/leaf', '../memory/leaf'),
  'src/input/leaf.ts': imports('../commands/leaf', '../context/leaf'),
  'src/frontends/leaf.ts': imports('../input/leaf', '../core/leaf', '../util/leaf'),
  'src/frontends/repl/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
  // One break of each rule.
  ...Object.fromEntries(Object.entries(UPWARD).map(([from, to]) => [`src/${from}/up.ts`, imports(`../${to}/leaf`)])),
  'src/memory/a.ts': "import { b } from './b';\nexport const a = (): unknown => b;\n",
  'src/memory/b.ts': "import { a } from './a';\nexport const b = (): unknown => a;\n",
  'src/core/view.ts': "import { Text } from 'ink';\nexport const T = Text;\n",
  'src/util/lost.ts': imports('./nowhere'),
  // memory.jsonl's one writer: allowed imports of the log, then one break of each memory rule.
  'src/memory/types.ts': imports(),
  'src/memory/log/append.ts': imports('../types'),
  'src/memory/log/write.ts': imports('./append'),
  'src/memory/side-file.ts': imports('./log/append'),
  'src/memory/sync/stage-now.ts': imports('../log/write'),
  'src/memory/index/add.ts': imports('../log/append'),
  'src/memory/log/up.ts': imports('../store'),
  'src/memory/store.ts': imports('./log/write', './sync/stage-now'),
};

describe.concurrent('architecture', () => {
  it('src/ has no cycles, no upward imports, no UI imports outside frontends/ and no unresolved imports', async ({ expect }) => {
    expect(await cruise(root)).toEqual({ code: 0, violations: [] });
  });

  it('every rule fires on its break in a fixture, and only there', async ({ expect }) => {
    const r = await cruise(fixture(files));
    expect(r.code).not.toBe(0);

    const layerBreaks = Object.entries(UPWARD).map(([from, to]) => `layer-${from} src/${from}/up.ts -> src/${to}/leaf.ts`);
    const cycle = r.violations.filter((v) => v.startsWith('no-circular '));
    const ui = r.violations.filter((v) => v.startsWith('ui-only-in-frontends '));
    const rest = r.violations.filter((v) => !cycle.includes(v) && !ui.includes(v));
    const memoryBreaks = [
      'memory-one-writer src/memory/index/add.ts -> src/memory/log/append.ts',
      'memory-log-is-the-base src/memory/log/up.ts -> src/memory/store.ts',
      'memory-store-no-sync src/memory/store.ts -> src/memory/sync/stage-now.ts',
    ];
    expect(rest).toEqual([...layerBreaks, ...memoryBreaks, 'no-unresolvable src/util/lost.ts -> ./nowhere'].sort());
    expect(cycle.length).toBeGreaterThan(0);
    for (const line of cycle) expect(line).toMatch(/^no-circular src\/memory\/[ab]\.ts -> src\/memory\/[ab]\.ts$/);
    expect(ui).toHaveLength(1);
    expect(ui[0]).toMatch(/^ui-only-in-frontends src\/core\/view\.ts -> .*node_modules\/ink\//);

    // Every rule in the config is among those shown to fire: a new rule needs a break here too.
    const ruleNames = (createRequire(import.meta.url)(configPath) as { forbidden: { name: string }[] }).forbidden.map((f) => f.name);
    const fired = new Set(r.violations.map((v) => v.split(' ')[0]));
    expect([...fired].sort()).toEqual([...ruleNames].sort());
  });
});
