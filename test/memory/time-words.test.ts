/**
 * Time words: what period a message names at a fixed clock (UTC days), whether it asks "when", and
 * which item texts say a time. Pure functions, no clock read.
 */
import { describe, expect, it } from 'vitest';
import { inPeriod, periodText, readTime, saysTime, withoutTime } from '../../src/memory/recall/time-words';

/** Sunday 6 December 2026, 09:00 UTC. */
const NOW = Date.parse('2026-12-06T09:00:00Z');
const read = (text: string) => {
  const r = readTime(text, NOW);
  return r && { said: r.said, periods: r.periods.map(periodText), when: r.when };
};

describe('time words', () => {
  it('reads days relative to now', () => {
    expect(read('what did we decide yesterday?')).toEqual({ said: ['yesterday'], periods: ['2026-12-05 – 2026-12-05'], when: false });
    expect(read('the day before yesterday')?.periods).toEqual(['2026-12-04 – 2026-12-04']);
    expect(read('what broke today')?.periods).toEqual(['2026-12-06 – 2026-12-06']);
    expect(read('what did I fix 3 days ago')?.periods).toEqual(['2026-12-03 – 2026-12-03']);
    expect(read('notes from last Friday')?.periods).toEqual(['2026-12-04 – 2026-12-04']);
  });

  it('reads weeks, months and years: the calendar one before this, or up to now', () => {
    // Weeks begin on Monday: the week before the one of Sunday 6 December is 23–29 November.
    expect(read('what did I change last week?')?.periods).toEqual(['2026-11-23 – 2026-11-29']);
    expect(read('last month')?.periods).toEqual(['2026-11-01 – 2026-11-30']);
    expect(read('anything this year')?.periods).toEqual(['2026-01-01 – 2026-12-06']);
    expect(read('in the past 3 months')?.periods).toEqual(['from 2026-09-07']);
    expect(read('two weeks ago')?.periods).toEqual(['2026-11-18 – 2026-11-25']);
  });

  it('reads named months, years and dates; a month without a year is that month of any year', () => {
    expect(read('What did Caroline do in July?')).toEqual({ said: ['in july'], periods: ['July (any year)'], when: false });
    expect(read('what happened in May 2023')?.periods).toEqual(['2023-05-01 – 2023-05-31']);
    expect(read('on 8 May 2023')?.periods).toEqual(['2023-05-08 – 2023-05-08']);
    expect(read('May 8th')?.periods).toEqual(['8 May (any year)']);
    expect(read('deploys in 2023')?.periods).toEqual(['2023-01-01 – 2023-12-31']);
    expect(read('the 2024-02-29 outage')?.periods).toEqual(['2024-02-29 – 2024-02-29']);
    // Last May: the latest May that has begun; this May: this year's.
    expect(read('last May')?.periods).toEqual(['2026-05-01 – 2026-05-31']);
    expect(read('before June 2024')?.periods).toEqual(['before 2024-06-01']);
    expect(read('since 2024')?.periods).toEqual(['from 2024-01-01']);
    expect(read('after May 2023')?.periods).toEqual(['from 2023-06-01']);
  });

  it('asks "when"', () => {
    expect(read('When did Melanie give a speech at a school?')).toEqual({ said: ['when'], periods: [], when: true });
    expect(read('what date did we ship v2?')?.when).toBe(true);
    expect(read('when did we move to pnpm in 2024')).toEqual({
      said: ['in 2024', 'when'],
      periods: ['2024-01-01 – 2024-12-31'],
      when: true,
    });
  });

  it('names no time in ordinary words: "may I", a name, a verb, a number', () => {
    expect(read('may I ask you something')).toBeNull();
    expect(read('did I talk with June about the release')).toBeNull();
    expect(read('march the branch forward')).toBeNull();
    expect(read('the server listens on 2023')).toBeNull();
    expect(read('write a haiku about autumn leaves')).toBeNull();
  });

  it('an item is in a period by its own UTC time; an unknown time is in none', () => {
    const july = readTime('in July', NOW)!.periods[0]!;
    expect(inPeriod(july, Date.parse('2023-07-10T12:00:00Z'))).toBe(true);
    expect(inPeriod(july, Date.parse('2023-08-01T00:00:00Z'))).toBe(false);
    expect(inPeriod(july, 0)).toBe(false);
    const week = readTime('last week', NOW)!.periods[0]!;
    expect(inPeriod(week, Date.parse('2026-11-29T23:59:59Z'))).toBe(true);
    expect(inPeriod(week, Date.parse('2026-11-30T00:00:00Z'))).toBe(false);
  });

  it('leaves the words the time was read from out of what items are matched by', () => {
    const text = 'What did Caroline do in July?';
    expect(withoutTime(text, readTime(text, NOW)!)).toBe('what did caroline do');
  });

  it('knows an item text that says a time: what a "when" question is answered by', () => {
    expect(saysTime('We went to a Coldplay concert last night')).toBe(true);
    expect(saysTime('I had my job interview at the hospital this morning')).toBe(true);
    expect(saysTime('moved the cluster on 2024-03-02')).toBe(true);
    expect(saysTime('since 2021 the API is v2')).toBe(true);
    expect(saysTime('I gave a speech at a school about growing up in a small town')).toBe(false);
    expect(saysTime('you may want to run the tests')).toBe(false);
  });
});
