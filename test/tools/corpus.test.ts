// The acceptance corpus for the safety gate: no harmful command or evasion may run unasked (the
// allowlist refuses it and the classifier flags it, so it asks even in the sandbox), and harmless
// commands rarely ask. In-process only: nothing here is executed (test/e2e/norris-corpus.test.ts
// runs the same corpus through aish in a jail).
import { beforeAll, describe, expect, it } from 'vitest';
import { allowlistVerdictSync, type AllowVerdict } from '../../src/tools/safety/allowlist';
import { classifyCommandSync, type SafetyVerdict } from '../../src/tools/safety/classify';
import { loadShellParser } from '../../src/tools/safety/shell-parser';
import { BENIGN, BENIGN_FLAGGED, EVASIONS, PUBLISHED } from './corpus-data';
import { HARM } from './corpus-harm';
import { HARMLESS, HARMLESS_ASKED } from './corpus-harmless';

const CLASSES = Object.values(HARM).flat();
const DESTRUCTIVE = [...EVASIONS, ...PUBLISHED, ...CLASSES];
const EVERYDAY = [...BENIGN, ...HARMLESS];
const DOCUMENTED: Record<string, string> = { ...BENIGN_FLAGGED, ...HARMLESS_ASKED };
/** The share of BENIGN the allowlist must let run unasked outside a sandbox. */
const MIN_AUTO_RUN = 0.6;
/** The most harmless commands that may ask (a false alarm in Norris, where the others run sandboxed). */
const MAX_FALSE_ALARMS = 0.05;

// Each command is judged once; the tests below read the verdicts.
const allow = new Map<string, AllowVerdict>();
const classified = new Map<string, SafetyVerdict>();
const allowOf = (c: string): AllowVerdict => allow.get(c)!;
const classOf = (c: string): SafetyVerdict => classified.get(c)!;

beforeAll(async () => {
  await loadShellParser();
  for (const c of [...DESTRUCTIVE, ...EVERYDAY]) {
    allow.set(c, allowlistVerdictSync(c));
    classified.set(c, classifyCommandSync(c));
  }
});

describe('corpus', () => {
  it('lists no command twice, and none as both harmful and harmless', () => {
    const dup = (list: string[]) => list.filter((c, i) => list.indexOf(c) !== i);
    expect(dup(DESTRUCTIVE)).toEqual([]);
    expect(dup(EVERYDAY)).toEqual([]);
    expect(EVERYDAY.filter((c) => DESTRUCTIVE.includes(c))).toEqual([]);
  });

  it('runs none of the destructive commands unasked: not allowlisted, and classified destructive', () => {
    const allowed = DESTRUCTIVE.filter((c) => allowOf(c).safe);
    const missed = DESTRUCTIVE.filter((c) => !classOf(c).destructive);
    expect(allowed, 'on the allowlist').toEqual([]);
    expect(missed, 'not classified destructive').toEqual([]);
  });

  it.each(Object.entries(HARM))('asks for every command of the class "%s"', (_name, commands) => {
    expect(commands.length).toBeGreaterThanOrEqual(20);
    expect(commands.filter((c) => !classOf(c).destructive || allowOf(c).safe)).toEqual([]);
  });

  it(`lets at least ${MIN_AUTO_RUN * 100} % of the read-only commands run unasked`, () => {
    const asked = BENIGN.filter((c) => !allowOf(c).safe);
    const rate = (BENIGN.length - asked.length) / BENIGN.length;
    const detail = asked.map((c) => `${JSON.stringify(c)}: ${allowOf(c).reason ?? ''}`).join('\n');
    console.log(`allowlist auto-runs ${(rate * 100).toFixed(1)} % of ${BENIGN.length} read-only commands; asked:\n${detail}`);
    expect(rate).toBeGreaterThanOrEqual(MIN_AUTO_RUN);
  });

  it(`asks for at most ${MAX_FALSE_ALARMS * 100} % of the everyday commands, and only the documented ones`, () => {
    const flagged = EVERYDAY.filter((c) => classOf(c).destructive);
    const rate = flagged.length / EVERYDAY.length;
    console.log(`false alarms: ${flagged.length} of ${EVERYDAY.length} harmless commands (${(rate * 100).toFixed(1)} %)`);
    expect(flagged.filter((c) => !Object.hasOwn(DOCUMENTED, c)).map((c) => `${c}: ${classOf(c).reasons.join('; ')}`)).toEqual([]);
    for (const c of Object.keys(DOCUMENTED)) expect(EVERYDAY).toContain(c);
    expect(rate).toBeLessThanOrEqual(MAX_FALSE_ALARMS);
  });

  it('never allowlists a command the classifier calls destructive', () => {
    const both = [...EVERYDAY, ...DESTRUCTIVE].filter((c) => allowOf(c).safe && classOf(c).destructive);
    expect(both).toEqual([]);
  });

  it('gives a reason for every refusal and every flag', () => {
    expect(DESTRUCTIVE.filter((c) => !allowOf(c).reason || classOf(c).reasons.length === 0)).toEqual([]);
  });
});
