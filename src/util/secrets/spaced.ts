/**
 * A key typed in pieces (`sk-proj-AbCd 1234 EfGh …`, `AKIA 1234 5678 …`): runs of short pieces on
 * one line whose joined form starts with a rule's keyword and matches that rule whole. Walks the
 * text once; each piece is tried only when the text from it starts with a keyword.
 */

import { ruleSet, type Finding, type Rule } from './rules';

/** The most pieces one key is looked for in, and the longest piece. */
const MAX_PIECES = 24;
const PIECE = /[A-Za-z0-9_+/=.:-]{1,16}/y;

interface Piece {
  from: number;
  to: number;
}

/** Each run of pieces separated by spaces or tabs, at least two long, handed to `onRun` as found. */
function runs(text: string, onRun: (run: Piece[]) => void): void {
  let run: Piece[] = [];
  let i = 0;
  const close = () => {
    if (run.length >= 2) onRun(run);
    run = [];
  };
  while (i < text.length) {
    PIECE.lastIndex = i;
    const m = PIECE.exec(text);
    const end = m ? i + m[0].length : i;
    const next = text.charCodeAt(end);
    if (m && (end === text.length || next === 32 || next === 9)) {
      run.push({ from: i, to: end });
      i = end;
      while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
      continue;
    }
    close();
    // Skip the rest of this word (not a piece) and the blanks after it.
    while (i < text.length && !/\s/.test(text[i]!)) i++;
    while (i < text.length && /\s/.test(text[i]!)) i++;
  }
  close();
}

/** How many characters of `s` the rule matches from its start, or 0. */
function matchFromStart(rule: Rule, s: string): number {
  rule.re.lastIndex = 0;
  const m = rule.re.exec(s);
  if (!m || m.index !== 0 || (rule.accept && !rule.accept(m[0]))) return 0;
  return m[0].replace(/\s+$/, '').length;
}

export function spacedSecrets(text: string): Finding[] {
  const found: Finding[] = [];
  const { keywords, byKeyword } = ruleSet();
  runs(text, (run) => {
    const piece = (k: number) => text.slice(run[k]!.from, run[k]!.to);
    for (let i = 0; i < run.length - 1;) {
      const rules = keywords.prefixes(piece(i) + (run[i + 1] ? piece(i + 1) : '')).flatMap((k) => byKeyword[k]!.filter((r) => r.pieces));
      let hit = 0;
      if (rules.length) {
        // Where each piece ends in the joined text; a key is found when a rule's match ends on one of them.
        const ends: number[] = [];
        let joined = '';
        for (let j = i; j < Math.min(run.length, i + MAX_PIECES); j++) ends.push((joined += piece(j)).length);
        for (const rule of rules) {
          // The longest match first; when it ends inside a piece (`AKIA…` followed by a word), shorter joins.
          let j = ends.indexOf(matchFromStart(rule, joined));
          for (let k = ends.length - 1; j < 1 && k >= 1; k--)
            if (ends[k]! >= 16 && matchFromStart(rule, joined.slice(0, ends[k])) === ends[k]) j = k;
          if (j >= 1 && ends[j]! >= 16) {
            found.push({ from: run[i]!.from, to: run[i + j]!.to, id: `${rule.id} (spaced out)` });
            hit = j + 1;
            break;
          }
        }
      }
      i += hit || 1;
    }
  });
  return found;
}
