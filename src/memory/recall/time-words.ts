/**
 * The time a message asks about: "yesterday", "last week", "3 months ago", "in May", "in May 2023",
 * "on 8 May", "in 2023", "before June", "since 2024", and whether it asks "when". Recall favours the
 * items written in that period (recall-time.ts); a "when" question favours items whose text says a
 * time. Pure: `now` is given, days are UTC days.
 */

const DAY = 86_400_000;

/** A period: [from, to) in ms; a month (and day) of any year when no year is named. */
export interface Period {
  from?: number;
  to?: number;
  /** 0–11: this month of any year (with `day`: that day of it). */
  month?: number;
  day?: number;
}

export interface TimeReading {
  /** The words read, as the plan shows them: `last week`, `in may`, `when did`. */
  said: string[];
  /** Items written in any of these are favoured (empty: none named). */
  periods: Period[];
  /** "when did…", "what date…": items that say a time are favoured. */
  when: boolean;
  /** Set by recall: the message's words recalled nothing, so the period narrowed (recall-time.ts's withinPeriod). */
  narrowed?: true;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_RE = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  few: 3,
  couple: 2,
  several: 3,
};
const UNIT = '(day|week|month|year)s?';
const COUNT = '(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple|several)';
/** A month name is a month (not "may I", "March on") after one of these, or next to a day or a year. */
const BEFORE_MONTH = '(?:in|during|since|before|after|until|till|by|of|from|last|this|early|late|mid|end of|start of|beginning of)';

const monthOf = (name: string) => MONTHS.findIndex((m) => m.startsWith(name.slice(0, 3)));
const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;
const utc = (y: number, m: number, d = 1) => Date.UTC(y, m, d);
const count = (w: string) => NUMBERS[w] ?? Number(w);

/** [from, to) of `n` units ending now, and of the unit `n` ago (a day, ±half a unit either side for longer ones). */
function unitMs(unit: string): number {
  return unit.startsWith('day') ? DAY : unit.startsWith('week') ? 7 * DAY : unit.startsWith('month') ? 30 * DAY : 365 * DAY;
}

const SIDE = '(?:(before|after|since|until|till) )?';
/** Whole words: each pattern matches between spaces (the text is normalised to have them). */
const words = (src: string) => new RegExp(`(?<= )${src.replace(/^ | $/g, '')}(?= )`, 'g');
const ISO_DATE = words(` ${SIDE}(\\d{4})-(\\d{2})-(\\d{2}) `);
const DAY_MONTH = words(` ${SIDE}(?:on |the )?(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH_RE}(?: (\\d{4}))? `);
const MONTH_DAY = words(` ${SIDE}(?:on )?${MONTH_RE} (\\d{1,2})(?:st|nd|rd|th)?(?: (\\d{4}))? `);
const MONTH_YEAR = words(` ${SIDE}(?:(?:in|of|during) )?${MONTH_RE} (\\d{4}) `);
const NAMED_MONTH = words(` (${BEFORE_MONTH}) ${MONTH_RE} `);
const UNITS_AGO = words(` ${COUNT} (?:of )?${UNIT} ago `);
const LAST_UNITS = words(` (?:in |over |during )?(?:the )?(?:last|past) (?:${COUNT} (?:of )?)?${UNIT} `);
const THIS_UNIT = words(` this ${UNIT} `);
const WEEKDAY = words(` (last|on|this|past) (${WEEKDAYS.join('|')}) `);
const YEAR = words(' (in|during|since|before|after|until|till|of|from|year) ((?:19|20)\\d{2}) ');
const DAY_BEFORE_YESTERDAY = words(' the day before yesterday ');
const YESTERDAY = words(' (yesterday|last night) ');
const TODAY = words(' (today|tonight|this morning|this afternoon|this evening) ');
/** Could name a time: a digit, or a word of one (most messages have none, and are read no further). */
const MAYBE =
  /\d|yesterday|today|tonight|night|morning|afternoon|evening|last|this|past|ago|when|what (date|day|year|month|time)|how long|which (day|year|month)|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|day/;

/**
 * What every match of a pattern holds: a message without it is not run through the pattern (a
 * pattern is compiled on its first use, which costs more than reading most messages).
 */
const MONTH_START = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec/;
const NEEDS = new Map<RegExp, RegExp>([
  [ISO_DATE, /\d{4}-/],
  [DAY_MONTH, MONTH_START],
  [MONTH_DAY, MONTH_START],
  [MONTH_YEAR, MONTH_START],
  [NAMED_MONTH, MONTH_START],
  [YEAR, /(?:19|20)\d\d/],
  [DAY_BEFORE_YESTERDAY, /yesterday/],
  [YESTERDAY, /yesterday|last night/],
  [TODAY, /today|tonight|this/],
  [UNITS_AGO, /ago/],
  [LAST_UNITS, /last|past/],
  [THIS_UNIT, /this/],
  [WEEKDAY, /day/],
]);

/** A one-sided period from a word before it: "before May" ends where May starts, "after May" starts where it ends. */
function sided(p: Period, word: string | undefined): Period {
  if (!word || p.from === undefined || p.to === undefined) return p;
  if (word === 'before' || word === 'until' || word === 'till') return { to: p.from };
  if (word === 'after') return { from: p.to };
  if (word === 'since') return { from: p.from };
  return p;
}

/** The time `text` asks about at `now` (ms), or null when it names none and does not ask "when". */
export function readTime(text: string, now: number): TimeReading | null {
  const s = normal(text);
  if (!MAYBE.test(s)) return null;
  const said: string[] = [];
  const periods: Period[] = [];
  const today = startOfDay(now);
  const year = new Date(now).getUTCFullYear();
  const taken: Array<[number, number]> = [];
  const free = (at: number, len: number) => taken.every(([a, b]) => at + len <= a || at >= b);
  // A span read once is not read again.
  const scan = (re: RegExp, f: (m: RegExpExecArray) => Period | null) => {
    if (!NEEDS.get(re)!.test(s)) return;
    for (const m of s.matchAll(re)) {
      if (!free(m.index, m[0].length)) continue;
      const p = f(m);
      if (!p) continue;
      taken.push([m.index, m.index + m[0].length]);
      said.push(m[0].trim());
      periods.push(p);
    }
  };
  // Dates: 2023-05-08, 8 May 2023, May 8 2023, 8th of May, May 8.
  scan(ISO_DATE, (m) => {
    const from = utc(+m[2]!, +m[3]! - 1, +m[4]!);
    return Number.isFinite(from) ? sided({ from, to: from + DAY }, m[1]) : null;
  });
  const day = (side: string | undefined, d: number, mo: number, y: string | undefined): Period | null => {
    if (d < 1 || d > 31 || mo < 0) return null;
    if (!y) return { month: mo, day: d };
    const from = utc(+y, mo, d);
    return sided({ from, to: from + DAY }, side);
  };
  scan(DAY_MONTH, (m) => day(m[1], +m[2]!, monthOf(m[3]!), m[4]));
  scan(MONTH_DAY, (m) => day(m[1], +m[3]!, monthOf(m[2]!), m[4]));
  // Months: May 2023, in May, last May, this May.
  scan(MONTH_YEAR, (m) => {
    const mo = monthOf(m[2]!);
    return sided({ from: utc(+m[3]!, mo), to: utc(+m[3]!, mo + 1) }, m[1]);
  });
  scan(NAMED_MONTH, (m) => {
    const word = m[1]!;
    const mo = monthOf(m[2]!);
    if (word === 'last' || word === 'this') {
      // This May: of this year; last May: the latest May that has begun and is not this month.
      const y = word === 'this' ? year : mo < new Date(now).getUTCMonth() ? year : year - 1;
      return { from: utc(y, mo), to: utc(y, mo + 1) };
    }
    if (['before', 'after', 'since', 'until', 'till'].includes(word)) {
      // Of the latest such month that has begun.
      const y = utc(year, mo) <= now ? year : year - 1;
      return sided({ from: utc(y, mo), to: utc(y, mo + 1) }, word);
    }
    return { month: mo };
  });
  // Years: in 2023, since 2024, before 2020.
  scan(YEAR, (m) => {
    const y = +m[2]!;
    return sided({ from: utc(y, 0), to: utc(y + 1, 0) }, m[1]);
  });
  // Relative days and units.
  scan(DAY_BEFORE_YESTERDAY, () => ({ from: today - 2 * DAY, to: today - DAY }));
  scan(YESTERDAY, (m) => ({ from: today - DAY, to: m[1] === 'last night' ? today + DAY : today }));
  scan(TODAY, () => ({ from: today, to: today + DAY }));
  scan(UNITS_AGO, (m) => {
    const n = count(m[1]!);
    const u = unitMs(m[2]!);
    if (u === DAY) return { from: today - n * DAY, to: today - (n - 1) * DAY };
    return { from: now - n * u - u / 2, to: now - n * u + u / 2 };
  });
  scan(LAST_UNITS, (m) => {
    const n = m[1] ? count(m[1]) : 1;
    const unit = m[2]!;
    // "last week" alone: the calendar week before this one (weeks begin on Monday); "the past 3 weeks": up to now.
    if (!m[1] && /^(?:(?:in|over|during) )?(?:the )?last /.test(m[0])) return lastUnit(unit, now);
    return { from: now - n * unitMs(unit) };
  });
  scan(THIS_UNIT, (m) => thisUnit(m[1]!, now));
  scan(WEEKDAY, (m) => {
    // The latest such day before today ("last Friday", "on Friday"); "this Friday": this week's.
    const want = WEEKDAYS.indexOf(m[2]!);
    const back = (new Date(today).getUTCDay() - want + 7) % 7 || 7;
    const from = m[1] === 'this' ? today - ((new Date(today).getUTCDay() + 6) % 7) * DAY + ((want + 6) % 7) * DAY : today - back * DAY;
    return { from, to: from + DAY };
  });
  const when =
    / (when (did|was|were|is|do|does|had|have|will|are)|what (date|day|year|month|time)|how long ago|since when|which (day|year|month)) /.test(
      s,
    );
  if (when) said.push(/ when /.test(s) ? 'when' : 'what date');
  return periods.length || when ? { said, periods, when } : null;
}

/** Lower case, no possessive `'s`, runs of anything but letters, digits and `-` one space, a space either side. */
function normal(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[’']s\b/g, '')
    .replace(/[^\p{L}\p{N}-]+/gu, ' ')} `;
}

/** The message without the words its time was read from (what is left to match items by). */
export function withoutTime(text: string, r: TimeReading): string {
  let s = normal(text);
  for (const w of r.said) s = s.replace(` ${w} `, ' ');
  return s.trim();
}

function lastUnit(unit: string, now: number): Period {
  const d = new Date(now);
  if (unit.startsWith('day')) return { from: startOfDay(now) - DAY, to: startOfDay(now) };
  if (unit.startsWith('week')) {
    const monday = startOfDay(now) - ((d.getUTCDay() + 6) % 7) * DAY;
    return { from: monday - 7 * DAY, to: monday };
  }
  if (unit.startsWith('month')) return { from: utc(d.getUTCFullYear(), d.getUTCMonth() - 1), to: utc(d.getUTCFullYear(), d.getUTCMonth()) };
  return { from: utc(d.getUTCFullYear() - 1, 0), to: utc(d.getUTCFullYear(), 0) };
}

function thisUnit(unit: string, now: number): Period {
  const d = new Date(now);
  const end = startOfDay(now) + DAY;
  if (unit.startsWith('day')) return { from: startOfDay(now), to: end };
  if (unit.startsWith('week')) return { from: startOfDay(now) - ((d.getUTCDay() + 6) % 7) * DAY, to: end };
  if (unit.startsWith('month')) return { from: utc(d.getUTCFullYear(), d.getUTCMonth()), to: end };
  return { from: utc(d.getUTCFullYear(), 0), to: end };
}

/** Whether an item written at `time` (ms; 0: unknown) is in the period. */
export function inPeriod(p: Period, time: number): boolean {
  if (!(time > 0)) return false;
  if (p.month !== undefined) {
    const d = new Date(time);
    return d.getUTCMonth() === p.month && (p.day === undefined || d.getUTCDate() === p.day);
  }
  return (p.from === undefined || time >= p.from) && (p.to === undefined || time < p.to);
}

/** A period as the plan shows it: `2023-05-01 – 2023-05-31`, `May (any year)`, `before 2023-06-01`. */
export function periodText(p: Period): string {
  const name = (m: number) => MONTHS[m]![0]!.toUpperCase() + MONTHS[m]!.slice(1);
  if (p.month !== undefined) return `${p.day !== undefined ? `${p.day} ` : ''}${name(p.month)} (any year)`;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  if (p.from === undefined) return `before ${iso(p.to!)}`;
  if (p.to === undefined) return `from ${iso(p.from)}`;
  return `${iso(p.from)} – ${iso(p.to - 1)}`;
}

/**
 * Whether an item's text says a time: a date, a month or weekday, "yesterday", "last week",
 * "3 days ago", "this morning" — what a "when" question's answer is written as.
 */
export function saysTime(text: string): boolean {
  return TIME_TEXT.test(text);
}

const TIME_TEXT = new RegExp(
  [
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    `\\b(${MONTHS.filter((m) => m !== 'may' && m !== 'march').join('|')})\\b`,
    `\\b(${WEEKDAYS.join('|')})s?\\b`,
    '\\b(yesterday|today|tonight|tomorrow|last (night|week|weekend|month|year|summer|winter|spring|autumn|fall))\\b',
    '\\b(this|next) (morning|afternoon|evening|week|weekend|month|year)\\b',
    `\\b${COUNT} ${UNIT} ago\\b`,
    '\\b(in|since) (19|20)\\d{2}\\b',
    '\\b(may|march) (19|20)\\d{2}\\b',
    '\\b\\d{1,2}(st|nd|rd|th)? (of )?(may|march)\\b',
  ].join('|'),
  'i',
);
