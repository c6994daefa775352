/**
 * Search terms of a text, shared by memory recall, `:memory search` and `:sessions search`, so a
 * query and what it is matched against are always cut the same way.
 *
 * Lower-cased runs of letters and digits (any script); English stop words dropped (they match
 * nearly everything and carry no meaning for ranking); then Harman's S-stemmer, which folds plain
 * English plurals ("databases" → "database", "lives" → "live", "libraries" → "library") and
 * nothing else, so it rarely merges words that mean different things.
 */

const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Harman (1991): -ies → -y, -es → -e, -s → '' with the usual exceptions. */
export function stem(w: string): string {
  const n = w.length;
  if (n <= 3 || w.charCodeAt(n - 1) !== 115 /* s */) return w;
  if (w.endsWith('ies') && !w.endsWith('eies') && !w.endsWith('aies')) return w.slice(0, -3) + 'y';
  if (w.endsWith('es') && !w.endsWith('aes') && !w.endsWith('ees') && !w.endsWith('oes')) return w.slice(0, -1);
  if (w.endsWith('us') || w.endsWith('ss')) return w;
  return w.slice(0, -1);
}

export function isStopWord(w: string): boolean {
  return STOP.has(w);
}

/** The text's terms in order, repeats kept (term frequency counts them). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (STOP.has(w)) continue;
    // Single letters are noise; single digits may be an id or a version ("node 2"), keep them.
    if (w.length === 1 && !(w >= '0' && w <= '9')) continue;
    out.push(stem(w));
  }
  return out;
}
