/**
 * A config module that misbehaves while loading, through the real CLI: it never settles, a getter
 * throws, the module throws at import. Each exits 2 with one line naming the file and writes nothing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

async function addWith(configBody: string) {
  const dir = tmpDir();
  const config = join(dir, 'config.ts');
  writeFileSync(config, configBody);
  const data = join(dir, 'data');
  const started = Date.now();
  const r = await runAish(['--config', config, '--data-dir', data, 'memory', 'add', 'fact', 'x'], { home: dir, timeoutMs: 15_000 });
  return { ...r, config, ms: Date.now() - started, wrote: existsSync(join(data, 'memory.jsonl')) };
}

describe('a config that misbehaves while loading (real CLI)', () => {
  it('the config that never settles exits 2 within 6 s', async () => {
    const r = await addWith('export default new Promise(() => {});\n');
    expect(r.stderr).toBe(
      `aish: config ${r.config}: not loaded within 5 s — does its default export (or a promise it returns) never settle?\n`,
    );
    expect(r.code).toBe(2);
    expect(r.ms).toBeLessThan(6000);
    expect(r.wrote).toBe(false);
  });

  it('a throwing getter exits 2 naming the file', async () => {
    const r = await addWith("export default { norris: { get maxSteps() { throw new Error('no steps for you'); } } };\n");
    expect(r.stderr).toBe(`aish: config ${r.config}: reading its values failed: no steps for you\n`);
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
  });

  it('a module that throws at import exits 2 naming the file', async () => {
    const r = await addWith("throw new Error('not today');\nexport default {};\n");
    expect(r.stderr).toMatch(new RegExp(`^aish: config ${r.config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*not today\\n$`));
    expect(r.code).toBe(2);
    expect(r.wrote).toBe(false);
  });
});
