/** Config errors through the real CLI: exit 2 and one line naming the file (and the line or key). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

function writeConfig(dir: string, body: string, name = 'config.ts'): string {
  const p = join(dir, name);
  writeFileSync(p, body);
  return p;
}

describe('config errors through the real CLI exit 2 with one line', () => {
  it('broken syntax names the file and line', async () => {
    const dir = tmpDir();
    const p = writeConfig(dir, "export default {\n  models: { fast: { model: 'x' }\n  context: { maxTokens: 1000 },\n};\n");
    const r = await runAish(['--config', p, 'memory', 'path'], { home: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`aish: config ${p}: line 3: Unexpected token, expected ","\n`);
    expect(r.stdout).toBe('');
  });

  it('a wrong type names the file and the key', async () => {
    const dir = tmpDir();
    const p = writeConfig(
      dir,
      "import { defineConfig } from 'aish';\nexport default defineConfig({ norris: { maxSteps: 'many' } } as never);\n",
    );
    const r = await runAish(['--config', p, 'memory', 'list'], { home: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`aish: config ${p}: norris.maxSteps must be a whole number from 1 to 1000 (got "many")\n`);
  });

  it('a missing --config file is a usage error', async () => {
    const dir = tmpDir();
    const r = await runAish(['--config', join(dir, 'nope.ts'), 'memory', 'path'], { home: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^aish: config file not found: .*nope\.ts/);
  });

  it('a runtime error in the config names the line', async () => {
    const dir = tmpDir();
    const p = writeConfig(dir, 'const a = 1;\nconst b = missingThing + a;\nexport default { };\n');
    const r = await runAish(['--config', p, 'memory', 'path'], { home: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`aish: config ${p}: line 2: missingThing is not defined\n`);
  });
});
