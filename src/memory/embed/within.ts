/** Wait for `p`, but no longer than `ms` (an unref'd abort timer: it never keeps the process alive). */
export async function within(p: Promise<unknown>, ms: number): Promise<void> {
  if (ms <= 0) return;
  const signal = AbortSignal.timeout(ms);
  await Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true })),
  ]);
}
