/**
 * The status line's text — model, cwd, memory injected, context tokens used/budget, Norris step,
 * tokens and cost — without React. The caller gives the function that cuts text to the terminal's
 * width (`cut`). When it does not fit, what goes first is the path (shortened from the left, then
 * dropped), then the tokens and cost (after the path has been shortened as far as it goes), then
 * the model's name, so `mem` and `ctx` stay at any width.
 */
import type { StatusInfo } from '../../core/status';
import { formatTokens as k, usageText } from '../../core/usage';
const SEP = ' │ ';

/** The path as it is, then its last 1…n-1 components after `…/`. */
function shorterPaths(cwd: string): string[] {
  const parts = cwd.split('/');
  const out = [cwd];
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (tail) out.push(`…/${tail}`);
  }
  return out;
}

export function statusText(s: StatusInfo, width: number, cut: (text: string, width: number) => string): string {
  const w = Math.max(11, width); // never cut below 10 columns and the …
  const rest = [
    s.memoryInjected === null ? 'mem …' : s.memoryInjected === 'off' ? 'mem off' : `mem ${s.memoryInjected}`,
    ...(s.inbox > 0 ? [`inbox ${s.inbox}`] : []),
    `ctx ${s.tokensExact ? '' : '~'}${k(s.tokens)}/${k(s.budget)}`,
    ...(s.norris ? [`NORRIS step ${s.norris.step}/${s.norris.maxSteps}`] : []),
    ...(s.sync ? [s.sync] : []),
  ];
  const fits = (t: string) => cut(t, w) === t;
  const line = (...head: string[]) => [...head, ...rest].join(SEP);
  if (s.usage) {
    const withUsage = (...head: string[]) => [...head, ...rest, usageText(s.usage!)].join(SEP);
    for (const cwd of shorterPaths(s.cwd))
      if (fits(withUsage(`${s.preset} (${s.model})`, cwd))) return withUsage(`${s.preset} (${s.model})`, cwd);
  }
  for (const model of [`${s.preset} (${s.model})`, s.preset]) {
    for (const cwd of shorterPaths(s.cwd)) if (fits(line(model, cwd))) return line(model, cwd);
  }
  if (fits(line(s.preset))) return line(s.preset);
  return cut(line(), w);
}
