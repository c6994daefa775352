/**
 * The overwrite class end to end (test/tools/corpus-overwrite.ts): every command, as a Norris step
 * of a real `aish --norris` with the sandbox required, inside a bubblewrap jail, aimed at a victim
 * file inside the project and at a marker outside it. Without --yes (nobody to ask) every inside
 * victim ends as it was and every step is refused — by the classifier before it runs ("Not run:")
 * or by the after-the-fact check after it ("Not kept:"); planted configuration files do not
 * remain. With --yes and a deny rule, steps the classifier shows as destructive run (what --yes
 * is for); every other one is put back and refused. The marker outside is never touched. With
 * --yes and no sandbox, every harmless-looking one is put back and refused, the marker outside
 * (named in the command) included.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyCommand } from '../../src/tools/safety/classify';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { bwrapUsable, makeJail, runSteps, type Jail } from '../helpers/norris-jail';
import { OVERWRITE, PLANTED } from '../tools/corpus-overwrite';

const fake = useFakeOpenAI();
const usable = bwrapUsable();
const skipped = usable ? '' : ' (SKIPPED: bubblewrap does not work here)';
const PRECIOUS = 'precious\n';
const REFUSED = /^Not (run|kept):/;

interface Case {
  name: string;
  command: string;
  /** The file that must end as it was (or, for a planted one, not exist). */
  victim: string;
  planted: boolean;
  inside: boolean;
}

function setUp(): { jail: Jail; cases: Case[] } {
  const jail = makeJail();
  const { project, home } = jail;
  writeFileSync(join(project, 'data.json'), '{"a": [1, 2]}\n');
  mkdirSync(join(project, 'victim'));
  mkdirSync(join(home, 'outside'));
  const cases: Case[] = [];
  OVERWRITE.forEach(([name, f], i) => {
    const inside = join(project, 'victim', `keep-${i}`);
    const outside = join(home, 'outside', `keep-${i}`);
    for (const p of [inside, outside]) {
      writeFileSync(p, PRECIOUS);
      chmodSync(p, 0o644);
    }
    cases.push({ name, command: f(`victim/keep-${i}`), victim: inside, planted: false, inside: true });
    cases.push({ name, command: f(outside), victim: outside, planted: false, inside: false });
  });
  for (const [name, file, command] of PLANTED) cases.push({ name, command, victim: join(project, file), planted: true, inside: true });
  return { jail, cases };
}

const intact = (c: Case): boolean =>
  c.planted
    ? !existsSync(c.victim)
    : existsSync(c.victim) && readFileSync(c.victim, 'utf8') === PRECIOUS && (statSync(c.victim).mode & 0o7777) === 0o644;

/** All steps in one reply; what each sent back to the model. */
async function run(jail: Jail, cases: Case[], yes: boolean): Promise<string[]> {
  const out = await runSteps(
    jail,
    fake,
    cases.map((c) => c.command),
    { goal: 'tidy the project', yes },
  );
  expect(cases.filter((_c, i) => out[i] === '(no result)').map((c) => c.command)).toEqual([]);
  return out;
}

function report(label: string, cases: Case[], out: string[]): void {
  const by = (re: RegExp, inside: boolean) => cases.filter((c, i) => c.inside === inside && re.test(out[i]!)).length;
  const n = cases.filter((c) => c.inside).length;
  console.log(
    `${label}: inside ${n} cases — ${by(/^Not run:/, true)} refused by the classifier, ${by(/^Not kept:/, true)} put back by the after-the-fact check; ` +
      `outside ${cases.length - n} — ${by(/^Not run:/, false)} refused, the rest failed in the sandbox`,
  );
}

describe(`the overwrite corpus through aish --norris, sandbox required, in a jail${skipped}`, () => {
  it(`holds ${OVERWRITE.length} overwrite and ${PLANTED.length} planted-configuration cases`, () => {
    expect(OVERWRITE.length + PLANTED.length).toBeGreaterThanOrEqual(40);
  });

  it.skipIf(!usable)(
    'without --yes: every victim intact, every step inside refused; nothing outside touched',
    { timeout: 300_000 },
    async () => {
      const { jail, cases } = setUp();
      const out = await run(jail, cases, false);
      report('no --yes', cases, out);
      expect(cases.filter((c) => !intact(c)).map((c) => `${c.name}: ${c.command}`)).toEqual([]);
      expect(cases.filter((c, i) => c.inside && !REFUSED.test(out[i]!)).map((c) => `${c.name}: ${c.command}`)).toEqual([]);
    },
  );

  it.skipIf(!usable)(
    'with --yes and a deny rule: what only looks harmless is put back and refused; nothing outside touched',
    { timeout: 300_000 },
    async () => {
      const { jail, cases } = setUp();
      writeFileSync(
        join(jail.home, 'config.ts'),
        `export default { safety: { sandbox: 'required', checkpoints: false, rules: ['deny rm', 'deny git push'] }, norris: { maxSteps: 4 } };\n`,
      );
      const out = await run(jail, cases, true);
      report('--yes', cases, out);
      const looksHarmless = await Promise.all(cases.map(async (c) => !(await classifyCommand(c.command)).destructive));
      console.log(
        `--yes: ${looksHarmless.filter((h, i) => !h && cases[i]!.inside).length} inside cases shown as destructive were not judged (--yes approves them; a deny rule may still refuse them)`,
      );
      expect(cases.filter((c, i) => (looksHarmless[i] || !c.inside) && !intact(c)).map((c) => `${c.name}: ${c.command}`)).toEqual([]);
      expect(cases.filter((c, i) => c.inside && looksHarmless[i] && !REFUSED.test(out[i]!)).map((c) => `${c.name}: ${c.command}`)).toEqual(
        [],
      );
    },
  );

  it.skipIf(!usable)(
    'with --yes and no sandbox: what only looks harmless is put back and refused, the marker outside included',
    { timeout: 300_000 },
    async () => {
      const { jail, cases } = setUp();
      writeFileSync(
        join(jail.home, 'config.ts'),
        `export default { safety: { sandbox: 'off', checkpoints: false }, norris: { maxSteps: 4 } };\n`,
      );
      const out = await run(jail, cases, true);
      const looksHarmless = await Promise.all(cases.map(async (c) => !(await classifyCommand(c.command)).destructive));
      const judged = cases.filter((_c, i) => looksHarmless[i]);
      console.log(`--yes, no sandbox: ${judged.length} of ${cases.length} cases look harmless and are judged`);
      expect(judged.filter((c) => !intact(c)).map((c) => `${c.inside ? 'inside' : 'outside'} ${c.name}: ${c.command}`)).toEqual([]);
      expect(
        cases
          .filter((_c, i) => looksHarmless[i] && !REFUSED.test(out[i]!))
          .map((c) => `${c.name}: ${c.command} → ${out[cases.indexOf(c)]!.slice(0, 100)}`),
      ).toEqual([]);
    },
  );
});
