/** model · cwd · memory injected · context tokens used/budget · Norris step (SPEC §7). */
import { Text } from 'ink';
import type { StatusInfo } from '../../engine/engine';

const k = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function statusText(s: StatusInfo): string {
  const parts = [
    `${s.preset} (${s.model})`,
    s.cwd,
    s.memoryInjected === null ? 'mem …' : s.memoryInjected === 'off' ? 'mem off' : `mem ${s.memoryInjected}`,
    `ctx ${s.tokensExact ? '' : '~'}${k(s.tokens)}/${k(s.budget)}`,
  ];
  if (s.norris) parts.push(`NORRIS step ${s.norris.step}/${s.norris.maxSteps}`);
  return parts.join(' │ ');
}

export function StatusLine({ status, width }: { status: StatusInfo; width: number }) {
  let text = statusText(status);
  if (text.length > width) text = text.slice(0, Math.max(10, width - 1)) + '…';
  return <Text dimColor>{text}</Text>;
}
