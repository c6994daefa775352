/**
 * The status line's text — model, cwd, memory injected, context tokens used/budget, Norris step,
 * tokens and cost — without React. The caller gives the function that cuts text to the terminal's
 * width (`cut`). When it does not fit, what goes first is the background sync's note (cut to the
 * room left, down to `sync failed: …`: a long git message must not push the rest off), then the
 * path (shortened from the left, then dropped), then the tokens and cost (after the path has been
 * shortened as far as it goes), then the model's name, so `mem` and `ctx` stay at any width.
 */
import type { StatusInfo } from '../../core/status';
import { formatTokens as k, usageText } from '../../core/usage';
import { columns } from '../../util/width';
const SEP = ' │ ';
// The sync note is never cut shorter than this: `sync failed: …` still says what happened.
const SYNC_MIN = 14;

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
  ];
  const fits = (t: string) => cut(t, w) === t;
  /** The parts in order, the sync note after `rest`, cut to the room the others leave. */
  const join = (head: string[], tail: string[]) => {
    if (!s.sync) return [...head, ...rest, ...tail].join(SEP);
    const room = w - columns([...head, ...rest, ...tail].join(SEP)) - SEP.length;
    const sync = columns(s.sync) <= room ? s.sync : cut(s.sync, Math.max(SYNC_MIN, room));
    return [...head, ...rest, sync, ...tail].join(SEP);
  };
  const line = (...head: string[]) => join(head, []);
  if (s.usage) {
    const withUsage = (...head: string[]) => join(head, [usageText(s.usage!)]);
    for (const cwd of shorterPaths(s.cwd))
      if (fits(withUsage(`${s.preset} (${s.model})`, cwd))) return withUsage(`${s.preset} (${s.model})`, cwd);
  }
  for (const model of [`${s.preset} (${s.model})`, s.preset]) {
    for (const cwd of shorterPaths(s.cwd)) if (fits(line(model, cwd))) return line(model, cwd);
  }
  if (fits(line(s.preset))) return line(s.preset);
  return cut(line(), w);
}
