/**
 * Nothing a step nobody approved started outlives it, without a sandbox too (in the sandbox, the
 * pid namespace ends with the step). The step's process group is killed when its shell exits —
 * `cmd &`, `nohup`, `disown` — and so is every process that still carries the step's mark in its
 * environment: one that left the group (`setsid`, a double fork) inherits the mark unless it clears
 * its environment on purpose. The after-the-fact check runs after this, so what such a process
 * wrote before it was stopped is judged with the step.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The variable that marks a step's processes. */
export const STEP_MARK = 'AISH_STEP';

export const newMark = (): string => randomBytes(12).toString('hex');

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // none left
  }
}

/** The pids (other than ours) whose environment holds `STEP_MARK=mark`; none where /proc cannot be read. */
function marked(mark: string): number[] {
  const needle = Buffer.from(`\0${STEP_MARK}=${mark}\0`);
  const first = Buffer.from(`${STEP_MARK}=${mark}\0`);
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const pid of pids) {
    try {
      const env = readFileSync(`/proc/${pid}/environ`);
      if (env.includes(needle) || env.subarray(0, first.length).equals(first)) out.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Stop what the step left running: its group, then each marked process until none is left. */
export function reap(pgid: number | undefined, mark: string): void {
  if (pgid) killGroup(pgid);
  // A process can fork while it is looked for: look again until a round finds nothing.
  for (let round = 0; round < 20; round++) {
    const left = marked(mark);
    if (!left.length) return;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}
