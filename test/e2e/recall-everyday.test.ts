/**
 * Everyday words through the built CLI: the bundle in dist/ finds everyday-words.txt in the
 * package's src/, so `aish memory plan` for small talk sharing one everyday word with a note
 * ("never mind" → "never use floats") recalls nothing and says why.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillerNotes, writeNotes } from '../helpers/dev-notes';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('everyday words (real CLI)', () => {
  it('small talk on one everyday word recalls nothing', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 0 } };\n');
    mkdirSync(join(home, 'd'), { recursive: true });
    writeNotes(join(home, 'd', 'memory.jsonl'), [
      ...fillerNotes(300),
      { content: 'Money amounts are integers in cents; never use floats' },
    ]);
    const r = await runAish(['--config', cfg, '--data-dir', join(home, 'd'), 'memory', 'plan', '--json', 'never mind'], {
      home,
      cwd: home,
    });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { recall: unknown[]; cutoff?: { nothing?: string } };
    expect(plan.recall).toEqual([]);
    expect(plan.cutoff?.nothing).toBe('one everyday word');
  });
});
