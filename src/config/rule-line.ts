/**
 * One command rule as users write it, in the config (`safety.rules`) and in a project's
 * `.aish/rules`: `deny git push`, `allow npm run test`, `ask docker`, `allow exact git status`.
 * The words are split like a shell splits them (quotes and backslashes), without expansions:
 * a rule names one command's words, so operators, `$`, backquotes and unquoted globs are refused.
 */

export type RuleDecision = 'allow' | 'ask' | 'deny';
const RULE_DECISIONS: readonly RuleDecision[] = ['allow', 'ask', 'deny'];

export interface CommandRule {
  decision: RuleDecision;
  /** The command's words, program first (the program without its directory when written with one). */
  words: string[];
  /** The command must have exactly these words, nothing after them. */
  exact: boolean;
  /** The program was written with a directory (`/usr/bin/git`): an allow rule then needs that path. */
  path?: string;
}

const SPECIAL = /[|&;<>()$`]/;
const GLOB = /[*?[\]{}]/;

/** Splits into words; null with the reason when the text is not plain words. */
function splitWords(text: string): { words: string[]; quoted: boolean[] } | { error: string } {
  const words: string[] = [];
  const quoted: boolean[] = [];
  let word: string | null = null;
  let wasQuoted = false;
  const end = (): void => {
    if (word !== null) {
      words.push(word);
      quoted.push(wasQuoted);
    }
    word = null;
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') end();
    else if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return { error: `unclosed ${c}` };
      const inner = text.slice(i + 1, close);
      if (c === '"' && /[$`\\]/.test(inner)) return { error: 'no $, backquotes or backslashes inside "…" (use \'…\')' };
      word = (word ?? '') + inner;
      wasQuoted = true;
      i = close;
    } else if (c === '\\') {
      if (i + 1 >= text.length) return { error: 'a backslash at the end' };
      word = (word ?? '') + text[++i];
      wasQuoted = true;
    } else if (SPECIAL.test(c)) return { error: `a rule is one command's words: quote ${c} to match it literally` };
    else if (GLOB.test(c)) return { error: `no patterns: quote ${c} to match it literally` };
    else word = (word ?? '') + c;
  }
  end();
  return { words, quoted };
}

/** Parses `DECISION [exact] WORDS…`; an error is one short phrase (the caller says where). */
export function parseRuleLine(text: string): CommandRule | { error: string } {
  if (/[\n\r\0]/.test(text)) return { error: 'a rule is one line' };
  const split = splitWords(text.trim());
  if ('error' in split) return split;
  const [first, ...rest] = split.words;
  const decision = first?.toLowerCase();
  if (!decision || split.quoted[0] || !(RULE_DECISIONS as readonly string[]).includes(decision))
    return { error: 'starts with allow, ask or deny' };
  let words = rest;
  let exact = false;
  if (words[0] === 'exact' && !split.quoted[1]) {
    exact = true;
    words = words.slice(1);
  }
  if (words.length === 0) return { error: `names the command after ${decision}${exact ? ' exact' : ''}` };
  const program = words[0]!;
  if (program.startsWith('-')) return { error: 'names a program first, not an option' };
  const rule: CommandRule = { decision: decision as RuleDecision, words, exact };
  if (program.includes('/')) {
    const base = program.slice(program.lastIndexOf('/') + 1);
    if (!base) return { error: 'names a program, not a directory' };
    rule.path = program;
    rule.words = [base, ...words.slice(1)];
  }
  rule.words[0] = rule.words[0]!.toLowerCase();
  return rule;
}

/** A word as a rule line spells it (quoted when it must be). */
export function quoteRuleWord(w: string): string {
  if (w !== '' && !/[\s'"\\|&;<>()$`*?[\]{}#]/.test(w)) return w;
  return `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The rule as one line, the form `:rules` shows and the project file holds. */
export function formatRule(r: CommandRule): string {
  const words = r.path ? [r.path, ...r.words.slice(1)] : r.words;
  return [r.decision, ...(r.exact ? ['exact'] : []), ...words.map(quoteRuleWord)].join(' ');
}
