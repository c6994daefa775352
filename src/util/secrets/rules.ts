/**
 * The rule set secrets are found with: gitleaks' default rules (generated into gitleaks-rules.json
 * by scripts/gitleaks-rules.mjs; see that file for source and version) and aish's own
 * (extra-rules.ts), compiled once, with one keyword index over all of them.
 */

import data from './gitleaks-rules.json';
import { EXTRA_RULES } from './extra-rules';
import { KeywordIndex } from './keywords';

export interface Finding {
  /** The secret's range in the scanned text. */
  from: number;
  to: number;
  /** The rule that found it. */
  id: string;
}

export interface Allow {
  /** What the regexes are tried on: the secret, the whole match, or the line it is on. */
  target: 'secret' | 'match' | 'line';
  res: RegExp[];
  stopwords: string[];
}

export interface Rule {
  id: string;
  /** Global with indices. */
  re: RegExp;
  /** Which group is the secret; 0: the first non-empty group, else the whole match. */
  group: number;
  /** The secret must carry more bits per character than this (gitleaks' `entropy`). */
  entropy: number;
  keywords: string[];
  allow: Allow[];
  /** gitleaks' leading `[\w.-]{0,50}?` is matched separately: as part of the regex it costs 50 steps per character. */
  prefix: number;
  accept?: (secret: string) => boolean;
  /** A token shape that can be looked for in a key typed in pieces (not a label-and-value form). */
  pieces: boolean;
}

const LEAD = '[\\w.-]{0,50}?';

function fromGitleaks(r: (typeof data.rules)[number]): Rule {
  const prefix = r.re.startsWith(LEAD) ? 50 : 0;
  return {
    id: r.id,
    re: new RegExp(prefix ? r.re.slice(LEAD.length) : r.re, 'dg'),
    group: r.group,
    entropy: r.entropy,
    keywords: r.keywords,
    allow: r.allow.map((a) => ({ target: a.target as Allow['target'], res: a.res.map((s) => new RegExp(s)), stopwords: a.stopwords })),
    prefix,
    pieces: !prefix && !/\\s|[ ]|\\[rn]|\\t/.test(r.re),
  };
}

export const RULES: Rule[] = [
  ...data.rules.map(fromGitleaks),
  ...EXTRA_RULES.map((r) => ({ ...r, group: 0, entropy: 0, allow: [], prefix: 0, pieces: !!r.pieces })),
];

/** gitleaks' global allowlist: template variables, paths, stopwords, applied to every secret. */
export const GLOBAL_ALLOW: Allow = { target: 'secret', res: data.global.res.map((s) => new RegExp(s)), stopwords: data.global.stopwords };

const keywords = [...new Set(RULES.flatMap((r) => r.keywords))];
export const KEYWORDS = new KeywordIndex(keywords);
/** For each keyword (by index in KEYWORDS), the rules that name it. */
export const RULES_BY_KEYWORD: Rule[][] = keywords.map((k) => RULES.filter((r) => r.keywords.includes(k)));
// Every rule names a keyword (a test holds the generated set to it): one without would never run.
