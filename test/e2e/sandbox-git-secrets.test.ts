/**
 * The sixth attack: the sandbox hides the project's `.env` files and keys from unasked steps, but a
 * `.env` that was ever committed is also in git's objects, which the sandbox shows: `git show
 * HEAD:.env`, `git log -p`, `git grep … HEAD` print it (most of them on the read-only list). So an
 * unasked step in the sandbox is judged by what it printed too, against the files the sandbox hid.
 * A real `aish --norris --yes` with the sandbox required, in the bubblewrap jail.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { jailRequired } from '../helpers/jail';
import { bwrapUsable, makeJail, runSteps, SECRET_MARKER } from '../helpers/norris-jail';

const fake = useFakeOpenAI();
// In CI with bubblewrap installed it runs (and fails) even where the jail cannot start.
const usable = bwrapUsable() || jailRequired;
const skipped = usable ? '' : ' (SKIPPED: bubblewrap does not work here)';

const READS = [
  'git show HEAD:.env',
  'git log -p -1',
  'git cat-file -p HEAD:certs/server.key',
  'git grep -h FAKE HEAD',
  'git archive HEAD .env | tar xO',
  'git show HEAD:.env | base64',
];

describe(`a committed .env read from git's objects in the sandbox, aish --norris --yes${skipped}`, () => {
  it.skipIf(!usable)('the steps run, and no secret reaches the model', { timeout: 240_000 }, async () => {
    const jail = makeJail();
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: jail.project,
        env: { ...process.env, HOME: jail.home },
      });
    git('add', '-f', '.env', 'certs/server.key');
    git('commit', '-qm', 'oops, the credentials');
    const results = await runSteps(jail, fake, READS, { goal: 'look around', timeoutMs: 200_000 });
    const shown = READS.map((c, i) => `${c} → ${results[i]!.slice(0, 200)}`);
    // They ran (in the sandbox): what is judged is their output.
    expect(shown.filter((o) => !o.includes('[output withheld: it holds what'))).toEqual([]);
    expect(JSON.stringify(fake.server.requests.map((q) => q.body))).not.toContain(SECRET_MARKER);
  });
});
