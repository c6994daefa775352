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

export interface RuleSet {
  rules: Rule[];
  /** gitleaks' global allowlist: template variables, paths, stopwords, applied to every secret. */
  globalAllow: Allow;
  keywords: KeywordIndex;
  /** For each keyword (by index in `keywords`), the rules that name it. */
  byKeyword: Rule[][];
}

let compiled: RuleSet | undefined;

/**
 * The compiled rule set, built on first use: compiling some 250 regexes and the keyword index is
 * work a start-up that never redacts should not pay.
 */
export function ruleSet(): RuleSet {
  if (compiled) return compiled;
  const rules: Rule[] = [
    ...data.rules.map(fromGitleaks),
    ...EXTRA_RULES.map((r) => ({ ...r, group: 0, entropy: 0, allow: [], prefix: 0, pieces: !!r.pieces })),
  ];
  // Every rule names a keyword (a test holds the generated set to it): one without would never run.
  const keywords = [...new Set(rules.flatMap((r) => r.keywords))];
  compiled = {
    rules,
    globalAllow: { target: 'secret', res: data.global.res.map((s) => new RegExp(s)), stopwords: data.global.stopwords },
    keywords: new KeywordIndex(keywords),
    byKeyword: keywords.map((k) => rules.filter((r) => r.keywords.includes(k))),
  };
  return compiled;
}
