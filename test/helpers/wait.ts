/** Waiting on observable state instead of sleeping for a guessed time. */
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resolves once `cond()` is true (polled every `intervalMs`); rejects after `timeoutMs` with
 * `what` and, if given, `detail()` (e.g. the screen) in the message.
 */
export async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  what: string,
  opts: { timeoutMs?: number; intervalMs?: number; detail?: () => string } = {},
): Promise<void> {
  const end = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}${opts.detail ? `\n${opts.detail()}` : ''}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 20));
  }
}

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** The command line, arguments joined by spaces. */
  cmdline: string;
  /** One-letter state from /proc/<pid>/stat (R, S, T, Z, …). */
  state: string;
}

function procInfo(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return { pid, ppid: Number(ppid), cmdline, state: state ?? '?' };
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Every live process below `root` (children, grandchildren, …), from /proc. */
export function descendants(root: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => procInfo(Number(d)))
    .filter((p): p is ProcInfo => p !== undefined);
  const out: ProcInfo[] = [];
  const parents = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        out.push(p);
        grew = true;
      }
    }
  }
  return out;
}

/** Resolves with the first live process below `root` whose command line matches `cmd`. */
export async function waitForDescendant(root: number, cmd: RegExp, opts: { timeoutMs?: number } = {}): Promise<ProcInfo> {
  let found: ProcInfo | undefined;
  await waitUntil(
    () => (found = descendants(root).find((p) => cmd.test(p.cmdline) && p.state !== 'Z')) !== undefined,
    `a process matching ${String(cmd)} under pid ${root}`,
    {
      ...opts,
      detail: () =>
        `processes under ${root}: ${
          descendants(root)
            .map((p) => `${p.pid} ${p.cmdline}`)
            .join('; ') || 'none'
        }`,
    },
  );
  return found!;
}

/** Whether `pid` is a live process (not gone, not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  const p = procInfo(pid);
  return p !== undefined && p.state !== 'Z';
}
