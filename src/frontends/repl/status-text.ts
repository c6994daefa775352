/** The status line's text (SPEC §7), without React: the first frame is drawn before Ink loads. */
import type { StatusInfo } from '../../core/status';

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
  return text.length > width ? text.slice(0, Math.max(10, width - 1)) + '…' : text;
}
