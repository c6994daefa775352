/**
 * The sixth attack: a step run without a sandbox can write aish's shadow repository (it is the
 * user's own file, outside the project, and not judged). A `filter=x` in its info/attributes with a
 * `filter.x.clean`/`smudge` in its config would make aish's own next `git add` (the next snapshot)
 * or the check's `git checkout` (a put-back) start that program after the step: nothing judges or
 * reaps it there. Every git call on the work tree puts info/attributes back first.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints, checkpointsRoot } from '../../src/checkpoints/checkpoints';
import { tmpDir } from '../helpers/tmp';

function setup() {
  const base = tmpDir('aish-shadow-tamper-');
  const work = join(base, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'a.txt'), 'one\n');
  const cps = new Checkpoints(checkpointsRoot(join(base, 'data')), work);
  const marker = join(base, 'ran');
  /** What a step without a sandbox could write into the shadow. */
  const tamper = () => {
    const shadow = cps.shadowDir;
    writeFileSync(join(shadow, 'info', 'attributes'), '* filter=x\n');
    appendFileSync(join(shadow, 'config'), `[filter "x"]\n\tclean = "touch ${marker}; cat"\n\tsmudge = "touch ${marker}; cat"\n`);
  };
  return { work, cps, marker, tamper };
}

describe('a filter planted in the shadow repository never runs', () => {
  it("aish's next snapshot does not run it", async () => {
    const { work, cps, marker, tamper } = setup();
    await cps.snapshot('first');
    tamper();
    writeFileSync(join(work, 'a.txt'), 'two\n');
    const cp = await cps.snapshot('second');
    expect(cp?.reused ?? false).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it("the check's put-back does not run it", async () => {
    const { work, cps, marker, tamper } = setup();
    await cps.snapshot('first');
    const w = await cps.watch('step');
    tamper();
    writeFileSync(join(work, 'a.txt'), 'overwritten\n');
    const v = await w!.check();
    expect(v?.changes).toEqual([{ path: 'a.txt', what: 'changed' }]);
    expect(readFileSync(join(work, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(marker)).toBe(false);
  });
});
