/**
 * The status line's text — model, cwd, memory injected, context tokens used/budget, Norris step —
 * without React: the first frame is drawn before Ink loads.
 */
import type { StatusInfo } from '../../core/status';
import { truncateColumns } from '../../util/width';

const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function statusText(s: StatusInfo, width: number): string {
  const parts = [
    `${s.preset} (${s.model})`,
    s.cwd,
    s.memoryInjected === null ? 'mem …' : s.memoryInjected === 'off' ? 'mem off' : `mem ${s.memoryInjected}`,
    `ctx ${s.tokensExact ? '' : '~'}${k(s.tokens)}/${k(s.budget)}`,
  ];
  if (s.norris) parts.push(`NORRIS step ${s.norris.step}/${s.norris.maxSteps}`);
  const text = parts.join(' │ ');
  return truncateColumns(text, Math.max(11, width)); // never cut below 10 columns and the …
}
