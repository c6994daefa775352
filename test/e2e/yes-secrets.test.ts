/**
 * `--yes` without a sandbox never sends secrets to the model: every line of the secret-read and
 * environment-dump corpus (test/tools/corpus-harm-secrets.ts: the second attack's, GTFOBins'
 * file-read entries, evasions) as a step of a real `aish --norris --yes` with `safety.sandbox:
 * "off"`, in the bubblewrap jail whose HOME and project hold planted fake credentials and whose
 * environment holds a fake token. Each the classifier shows reading them is refused before it runs,
 * and no request to the model holds a planted secret. With the sandbox, the same steps run and read
 * nothing: the stores are hidden (in the project, every file the classifier counts as credentials,
 * `certs/server.pem` included), the variables gone.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/tools/safety/classify';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { bwrapUsable, ENV_MARKER, makeJail, runSteps, SECRET_MARKER } from '../helpers/norris-jail';
import { HARM_SECRETS } from '../tools/corpus-harm-secrets';

const fake = useFakeOpenAI();
const usable = bwrapUsable();
const skipped = usable ? '' : ' (SKIPPED: bubblewrap does not work here)';
const LINES = [...HARM_SECRETS['secret reads']!, ...HARM_SECRETS['environment dumps']!];

async function run(sandbox: 'off' | 'required'): Promise<{ out: string[]; sent: string }> {
  const jail = makeJail();
  writeFileSync(
    join(jail.home, 'config.ts'),
    `export default { safety: { sandbox: '${sandbox}', checkpoints: false }, norris: { maxSteps: 3 } };\n`,
  );
  const out = await runSteps(jail, fake, LINES, { goal: 'look around', env: { GITHUB_TOKEN: ENV_MARKER }, timeoutMs: 200_000 });
  return {
    out,
    sent: JSON.stringify(fake.server.requests.map((q) => q.body)),
  };
}

describe(`secrets under aish --norris --yes, in a jail${skipped}`, () => {
  it(`the corpus holds ${LINES.length} secret reads and environment dumps`, () => {
    expect(LINES.length).toBeGreaterThanOrEqual(40);
  });

  it.skipIf(!usable)('without a sandbox: every secret read is refused, and no secret reaches the model', { timeout: 240_000 }, async () => {
    const { out, sent } = await run('off');
    // What the classifier shows reading credentials or the environment is refused before it runs;
    // the rest (inline code that prints the environment) runs without the secret-named variables.
    const reads = await Promise.all(LINES.map(async (c) => (await classifyCommand(c)).secrets === true));
    expect(reads.filter(Boolean).length).toBeGreaterThanOrEqual(80);
    expect(LINES.filter((_c, i) => reads[i] && !/^Not run: .*credentials or the environment/.test(out[i]!))).toEqual([]);
    expect(sent).not.toContain(SECRET_MARKER);
    expect(sent).not.toContain(ENV_MARKER);
  });

  it.skipIf(!usable)('with the sandbox: the steps run, and no secret reaches the model', { timeout: 240_000 }, async () => {
    const { out, sent } = await run('required');
    expect(LINES.map((c, i) => `${c} → ${out[i]!}`).filter((x) => x.includes(SECRET_MARKER) || x.includes(ENV_MARKER))).toEqual([]);
    expect(sent).not.toContain(SECRET_MARKER);
    expect(sent).not.toContain(ENV_MARKER);
  });
});
