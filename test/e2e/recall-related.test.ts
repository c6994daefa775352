/**
 * Related words through the built CLI: the bundle in dist/ finds the WordNet table in the package's
 * src/, so `aish memory plan` for "Is she married?" recalls the item about a wedding, below the one that
 * says "married".
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeNotes, fillerNotes } from '../helpers/dev-notes';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { writeFileSync } from 'node:fs';

interface PlanEntry {
  id: number;
}

describe('related words (real CLI)', () => {
  it('the plan recalls an item in a related word', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 0 } };\n');
    mkdirSync(join(home, 'd'), { recursive: true });
    const notes = [
      ...fillerNotes(300),
      { content: 'Our wedding anniversary is next week, ten years together with Tom' },
      { content: 'My cousin is getting married in the autumn' },
    ];
    writeNotes(join(home, 'd', 'memory.jsonl'), notes);
    const r = await runAish(['--config', cfg, '--data-dir', join(home, 'd'), 'memory', 'plan', '--json', 'Is she married?'], {
      home,
      cwd: home,
    });
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { recall: PlanEntry[] };
    expect(plan.recall.map((e) => e.id)).toEqual([302, 301]);
  });
});
