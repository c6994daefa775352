/**
 * The status line's text — model, cwd, memory injected, context tokens used/budget, Norris step —
 * without React: the first frame is drawn before Ink loads. The caller cuts it to the terminal's
 * width (`cut`): Ink's frame with string-width, the first frame without it (see first-frame.ts).
 */
import type { StatusInfo } from '../../core/status';

const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function statusText(s: StatusInfo, width: number, cut: (text: string, width: number) => string): string {
  const parts = [
    `${s.preset} (${s.model})`,
    s.cwd,
    s.memoryInjected === null ? 'mem …' : s.memoryInjected === 'off' ? 'mem off' : `mem ${s.memoryInjected}`,
    ...(s.inbox > 0 ? [`inbox ${s.inbox}`] : []),
    `ctx ${s.tokensExact ? '' : '~'}${k(s.tokens)}/${k(s.budget)}`,
  ];
  if (s.norris) parts.push(`NORRIS step ${s.norris.step}/${s.norris.maxSteps}`);
  const text = parts.join(' │ ');
  return cut(text, Math.max(11, width)); // never cut below 10 columns and the …
}
