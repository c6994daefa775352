/**
 * Files outside the project reached without a path the after-the-fact check used to read
 * (test/tools/corpus-places.ts, REACHES): a hard link made by an earlier step (put back by a new
 * file, the link's other name kept what the step wrote), `/proc/self/cwd/../x` (read as a path under
 * /proc), a relative path after `cd ..` (read from the project) and one through `ln -s .. up`
 * made by the same step. Every harmless-looking writer
 * of the places corpus through each, as steps of a real `aish --norris --yes` without a sandbox, in
 * the bubblewrap jail: each victim outside the project ends as it was, and no step that wrote
 * through one of them is kept.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { jailRequired } from '../helpers/jail';
import { bwrapUsable, makeJail, runSteps } from '../helpers/norris-jail';
import { REACHES, WRITERS } from '../tools/corpus-places';

const fake = useFakeOpenAI();
// In CI with bubblewrap installed it runs (and fails) even where the jail cannot start.
const usable = bwrapUsable() || jailRequired;
const skipped = usable ? '' : ' (SKIPPED: bubblewrap does not work here)';
const PRECIOUS = 'precious\n';

describe(`writes outside the project through a hard link, /proc/self/cwd or a cd, aish --norris --yes without a sandbox${skipped}`, () => {
  it.skipIf(!usable)('every victim outside ends as it was; no step that wrote is kept', { timeout: 300_000 }, async () => {
    const jail = makeJail();
    writeFileSync(
      join(jail.home, 'config.ts'),
      `export default { safety: { sandbox: 'off', checkpoints: false }, norris: { maxSteps: 3 } };\n`,
    );
    writeFileSync(join(jail.project, 'data.json'), '{"a": [1, 2]}\n');
    mkdirSync(join(jail.home, 'outside'));
    const cases: Array<{ what: string; victim: string; steps: string[] }> = [];
    for (const [reach, steps] of REACHES)
      for (const [writer, w] of WRITERS) {
        const name = `keep-${cases.length}`;
        writeFileSync(join(jail.home, 'outside', name), PRECIOUS);
        cases.push({ what: `${reach}, ${writer}`, victim: join(jail.home, 'outside', name), steps: steps(name, w) });
      }
    const all = cases.flatMap((c) => c.steps);
    const results = await runSteps(jail, fake, all, { goal: 'tidy up' });
    const out = new Map(all.map((c, i) => [c, results[i]!]));
    expect(cases.filter((c) => readFileSync(c.victim, 'utf8') !== PRECIOUS).map((c) => c.what)).toEqual([]);
    // The writing step (the last of each case) either failed or was put back, never kept as it ran.
    const kept = cases.filter((c) => out.get(c.steps.at(-1)!)!.startsWith('exit code 0'));
    expect(kept.map((c) => `${c.what}: ${c.steps.at(-1)!}`)).toEqual([]);
    const putBack = cases.filter((c) => out.get(c.steps.at(-1)!)!.startsWith('Not kept:')).length;
    console.log(`${cases.length} writes outside through ${REACHES.length} reaches: ${putBack} put back, the rest failed`);
    expect(putBack).toBeGreaterThanOrEqual(REACHES.length * 3);
  });
});
