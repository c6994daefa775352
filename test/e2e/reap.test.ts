/**
 * Nothing a step nobody approved started outlives it without a sandbox either (src/tools/reap.ts):
 * real processes started the ways a command leaves work behind — in the background, with nohup,
 * in a new session, by a double fork, with the environment cleared (`env -i`: no mark) — are
 * stopped when the shell exits, before they write. The
 * same commands without `reap` (a step a person approved) keep running, which shows the test can
 * fail.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runShell } from '../../src/tools/shell';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const LEFT_BEHIND: Array<[string, (mark: string) => string]> = [
  ['&', (m) => `(sleep 1; touch ${m}) >/dev/null 2>&1 &`],
  ['nohup &', (m) => `nohup sh -c 'sleep 1; touch ${m}' >/dev/null 2>&1 &`],
  ['setsid -f', (m) => `setsid -f sh -c 'sleep 1; touch ${m}' >/dev/null 2>&1`],
  ['& disown', (m) => `{ sleep 1; touch ${m}; } >/dev/null 2>&1 & disown`],
  ['double fork', (m) => `sh -c '(sleep 1; touch ${m}) >/dev/null 2>&1 &'`],
  ['setsid, then a double fork', (m) => `setsid -f sh -c '(sh -c "sleep 1; touch ${m}" &) ' >/dev/null 2>&1`],
  // the fifth attack: no mark in the environment, out of the step's session and group
  ['env -i setsid -f', (m) => `env -i setsid -f sh -c 'sleep 1; touch ${m}' >/dev/null 2>&1`],
  ['env -i, then a double fork', (m) => `env -i sh -c '(sleep 1; touch ${m}) >/dev/null 2>&1 &'`],
  ['env -i setsid, then a double fork', (m) => `env -i setsid -f sh -c '(sh -c "sleep 1; touch ${m}" &) ' >/dev/null 2>&1`],
  ['env -i nohup in a new session', (m) => `env -i setsid nohup sh -c 'sleep 1; touch ${m}' >/dev/null 2>&1 &`],
  // a server that daemonizes (a tmux server of the step's own, on a socket of its own)
  ['tmux new -d', (m) => `env -i tmux -S ${m}.sock new -d 'sleep 1; touch ${m}'`],
];

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

describe.skipIf(process.platform !== 'linux')('what a step leaves running, without a sandbox', () => {
  it.each(LEFT_BEHIND.filter(([name]) => hasTmux || !name.startsWith('tmux')))(
    '%s: stopped when the shell exits, before it writes',
    async (_name, command) => {
      const dir = tmpDir('aish-reap-');
      const marks = [join(dir, 'reaped'), join(dir, 'kept')];
      await runShell(command(marks[0]!), { cwd: dir, reap: true, shell: '/bin/bash' });
      await runShell(command(marks[1]!), { cwd: dir, shell: '/bin/bash' });
      // The one left running (no reap) writes its mark; by then the other would have too.
      await waitUntil(() => existsSync(marks[1]!), 'the mark of the process left running');
      expect(existsSync(marks[0]!)).toBe(false);
    },
  );
});
