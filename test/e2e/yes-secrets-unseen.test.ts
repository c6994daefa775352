/**
 * Secrets the classifier cannot see being read, under `aish --norris --yes` without a sandbox: a
 * shell running text put together at run time, recursive reads through a link to HOME or from
 * HOME's parent side, `find … | xargs`, interpreters reading aish's own environment through /proc,
 * and read-only-looking searches that reach the project's `.env` and keys. Each runs (nothing in
 * its words names a credential store), so the step is judged by what it printed: output holding
 * what a credential store or a secret variable holds is withheld from the model. In the bubblewrap
 * jail whose HOME and project hold planted fake credentials (test/helpers/norris-jail.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { jailRequired } from '../helpers/jail';
import { bwrapUsable, ENV_MARKER, makeJail, runSteps, SECRET_MARKER } from '../helpers/norris-jail';
import { ENCODED_SECRET_READS, UNSEEN_SECRET_READS as UNSEEN_READS } from '../tools/corpus-harm-secrets';

const fake = useFakeOpenAI();
// In CI with bubblewrap installed it runs (and fails) even where the jail cannot start.
const usable = bwrapUsable() || jailRequired;
const skipped = usable ? '' : ' (SKIPPED: bubblewrap does not work here)';

describe(`secrets read where the classifier cannot see it, aish --norris --yes without a sandbox${skipped}`, () => {
  it.skipIf(!usable)('the steps run, and no secret reaches the model', { timeout: 240_000 }, async () => {
    const jail = makeJail();
    writeFileSync(
      join(jail.home, 'config.ts'),
      `export default { safety: { sandbox: 'off', checkpoints: false }, norris: { maxSteps: 3 } };\n`,
    );
    const results = await runSteps(jail, fake, UNSEEN_READS, {
      goal: 'look around',
      env: { GITHUB_TOKEN: ENV_MARKER },
      timeoutMs: 200_000,
    });
    const out = UNSEEN_READS.map((c, i) => `${c} → ${results[i]!.slice(0, 300)}`);
    // Most run (nothing in their words names a store): what is judged is their output.
    expect(out.filter((o) => !/ → Not run:/.test(o)).length).toBeGreaterThanOrEqual(UNSEEN_READS.length - 2);
    expect(out.filter((o) => o.includes(SECRET_MARKER) || o.includes(ENV_MARKER))).toEqual([]);
    const sent = JSON.stringify(fake.server.requests.map((q) => q.body));
    expect(sent).not.toContain(SECRET_MARKER);
    expect(sent).not.toContain(ENV_MARKER);
  });

  it.skipIf(!usable)(
    'printed encoded (base64, gzip, hex, rot13, rev, folded), the output is withheld too',
    { timeout: 240_000 },
    async () => {
      const jail = makeJail();
      writeFileSync(
        join(jail.home, 'config.ts'),
        `export default { safety: { sandbox: 'off', checkpoints: false }, norris: { maxSteps: 3 } };\n`,
      );
      const results = await runSteps(jail, fake, ENCODED_SECRET_READS, { goal: 'look around', timeoutMs: 200_000 });
      const shown = ENCODED_SECRET_READS.map((c, i) => `${c} → ${results[i]!.slice(0, 200)}`);
      expect(shown.filter((o) => !o.includes('[output withheld: it holds what'))).toEqual([]);
    },
  );
});
