/** Small helpers shared by the benchmarks: statistics, machine description, child timing. */
import { spawn } from 'node:child_process';
import { cpus, totalmem, release, platform } from 'node:os';
import { performance } from 'node:perf_hooks';

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

export function stats(samples: number[]): { p50: number; p95: number; p99: number; min: number; mean: number; n: number } {
  const s = [...samples].sort((a, b) => a - b);
  return {
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    min: s[0]!,
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    n: s.length,
  };
}

export function median(samples: number[]): number {
  return stats(samples).p50;
}

export function machine(): string {
  const c = cpus();
  return `${c[0]?.model ?? 'unknown CPU'} × ${c.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
}

/** Collect garbage first (when run with --expose-gc) so a sample does not pay for earlier ones. */
export function time<T>(fn: () => T): [number, T] {
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  const r = fn();
  return [performance.now() - t0, r];
}

/** Wall time of a child process from spawn to exit, in ms. */
export function timeProcess(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`));
      else resolve(performance.now() - t0);
    });
  });
}

export const fmt = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
