/**
 * Pinned items [background] has no room for. The most recently pinned are kept; every one left out
 * is named, with its reason (`budget`), at start, on pin and unpin, in listings and in the plan.
 */
import type { IndexBackground } from '../index/background';

type Notice = { kind: 'info' | 'warn'; text: string };

/** At most this many ids in one line; the rest are counted (`:memory list` marks every one). */
const NAMED = 20;

/** `#3, #7` (the first NAMED, then how many more). */
function idList(ids: readonly number[]): string {
  const named = ids.slice(0, NAMED).map((id) => `#${id}`);
  return named.join(', ') + (ids.length > NAMED ? ` and ${ids.length - NAMED} more` : '');
}

function why(pinnedChars: number, budget: number): string {
  return `pinned memory needs ${pinnedChars} characters, more than memory.injectMaxChars (${budget}); the most recently pinned are kept — unpin some or raise the budget`;
}

/** Said at start: the pinned items left out, by id; null when every pinned item that applies here is in. */
export function pinnedLeftOutNotice(bg: Pick<IndexBackground, 'pinnedLeftOut' | 'pinnedChars'>, budget: number): string | null {
  const ids = bg.pinnedLeftOut;
  if (ids.length === 0) return null;
  return `${ids.length === 1 ? 'pinned item' : 'pinned items'} left out of [background] (budget): ${idList(ids)} — ${why(bg.pinnedChars, budget)}`;
}

/** The last line of a listing that has pinned items left out (each is marked in it too). */
export function listedLeftOutLine(ids: readonly number[]): string | null {
  if (ids.length === 0) return null;
  return `pinned but left out of [background] (budget): ${idList(ids)} — the most recently pinned are kept; unpin some or raise memory.injectMaxChars`;
}

/**
 * After `pin ID` / `unpin ID` (`before`: the pinned left out before it): whether ID is in
 * [background] and why not, which pinned items an unpin let in, and which are still left out.
 */
export function pinReport(id: number, on: boolean, before: readonly number[], after: IndexBackground, budget: number): Notice[] {
  const out: Notice[] = [];
  const left = after.pinnedLeftOut;
  const others = left.filter((x) => x !== id);
  if (on && left.includes(id)) {
    const also = others.length ? `; so ${others.length === 1 ? 'is' : 'are'} ${idList(others)}` : '';
    out.push({ kind: 'warn', text: `#${id} is pinned but left out of [background] (budget)${also}: ${why(after.pinnedChars, budget)}` });
    return out;
  }
  if (on && !after.items.some((it) => it.id === id))
    out.push({ kind: 'info', text: `#${id} is pinned but not in [background] here (scope: a project item of another directory)` });
  const back = before.filter((x) => x !== id && !left.includes(x));
  if (back.length) out.push({ kind: 'info', text: `memory: pinned ${idList(back)} in [background] again (no longer left out for budget)` });
  if (others.length) {
    const still = back.length || !on ? 'still ' : '';
    out.push({
      kind: 'warn',
      text: `${others.length === 1 ? 'pinned item' : 'pinned items'} ${still}left out of [background] (budget): ${idList(others)} — ${why(after.pinnedChars, budget)}`,
    });
  }
  return out;
}
