// The acceptance corpus for the safety gate: no destructive command or evasion may run unasked
// (the allowlist refuses it and the classifier flags it), and the allowlist lets most of the
// read-only commands an agent uses run unasked. In-process only: nothing here is executed.
import { beforeAll, describe, expect, it } from 'vitest';
import { allowlistVerdictSync, type AllowVerdict } from '../../src/tools/safety/allowlist';
import { classifyCommandSync, type SafetyVerdict } from '../../src/tools/safety/classify';
import { loadShellParser } from '../../src/tools/safety/shell-parser';
import { BENIGN, BENIGN_FLAGGED, EVASIONS, PUBLISHED } from './corpus-data';

const DESTRUCTIVE = [...EVASIONS, ...PUBLISHED];
/** The share of BENIGN the allowlist must let run unasked. */
const MIN_AUTO_RUN = 0.6;

// Each command is judged once; the tests below read the verdicts.
const allow = new Map<string, AllowVerdict>();
const classified = new Map<string, SafetyVerdict>();
const allowOf = (c: string): AllowVerdict => allow.get(c)!;
const classOf = (c: string): SafetyVerdict => classified.get(c)!;

beforeAll(async () => {
  await loadShellParser();
  for (const c of [...DESTRUCTIVE, ...BENIGN]) {
    allow.set(c, allowlistVerdictSync(c));
    classified.set(c, classifyCommandSync(c));
  }
});

describe('corpus', () => {
  it('lists no command twice, and none as both destructive and read-only', () => {
    const dup = (list: string[]) => list.filter((c, i) => list.indexOf(c) !== i);
    expect(dup(DESTRUCTIVE)).toEqual([]);
    expect(dup(BENIGN)).toEqual([]);
    expect(BENIGN.filter((c) => DESTRUCTIVE.includes(c))).toEqual([]);
  });

  it('runs none of the destructive commands unasked: not allowlisted, and classified destructive', () => {
    const allowed = DESTRUCTIVE.filter((c) => allowOf(c).safe);
    const missed = DESTRUCTIVE.filter((c) => !classOf(c).destructive);
    expect(allowed, 'on the allowlist').toEqual([]);
    expect(missed, 'not classified destructive').toEqual([]);
  });

  it(`lets at least ${MIN_AUTO_RUN * 100} % of the read-only commands run unasked`, () => {
    const asked = BENIGN.filter((c) => !allowOf(c).safe);
    const rate = (BENIGN.length - asked.length) / BENIGN.length;
    const detail = asked.map((c) => `${JSON.stringify(c)}: ${allowOf(c).reason ?? ''}`).join('\n');
    console.log(`allowlist auto-runs ${(rate * 100).toFixed(1)} % of ${BENIGN.length} read-only commands; asked:\n${detail}`);
    expect(rate).toBeGreaterThanOrEqual(MIN_AUTO_RUN);
  });

  it('flags none of the read-only commands destructive, except the documented ones', () => {
    const flagged = BENIGN.filter((c) => classOf(c).destructive && !Object.hasOwn(BENIGN_FLAGGED, c));
    expect(flagged.map((c) => `${c}: ${classOf(c).reasons.join('; ')}`)).toEqual([]);
    for (const c of Object.keys(BENIGN_FLAGGED)) expect(BENIGN).toContain(c);
  });

  it('never allowlists a command the classifier calls destructive', () => {
    const both = [...BENIGN, ...DESTRUCTIVE].filter((c) => allowOf(c).safe && classOf(c).destructive);
    expect(both).toEqual([]);
  });

  it('gives a reason for every refusal and every flag', () => {
    expect(DESTRUCTIVE.filter((c) => !allowOf(c).reason || classOf(c).reasons.length === 0)).toEqual([]);
  });
});
