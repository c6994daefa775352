/** The composition root: each consumer's view is frozen and holds only what it uses; the parts' callbacks are wired. */
import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { composeSession } from '../../src/core/session-parts';
import type { StatusInfo } from '../../src/core/status';
import { recordingHost } from '../helpers/host';
import { tmpDir } from '../helpers/tmp';

async function compose() {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const statuses: StatusInfo[] = [];
  const { host } = recordingHost([], { status: (s) => statuses.push(s) });
  const parts = composeSession(await setup({}, env), host, { env, memory: false });
  return { home, parts, statuses };
}

describe('composeSession', () => {
  it('hands a turn, a prompt and `!cmd` frozen views with only what each uses', async () => {
    const { parts } = await compose();
    expect(Object.isFrozen(parts)).toBe(true);
    expect(Object.isFrozen(parts.turn)).toBe(true);
    expect(Object.isFrozen(parts.prompt)).toBe(true);
    expect(Object.isFrozen(parts.userShell)).toBe(true);
    expect(Object.keys(parts.turn).sort()).toEqual(
      [
        'broker',
        'callFailed',
        'cancellable',
        'config',
        'conversation',
        'countUsage',
        'cwd',
        'guards',
        'host',
        'record',
        'request',
        'stepLabel',
        'toolbox',
      ].sort(),
    );
    expect(Object.keys(parts.userShell).sort()).toEqual(['addShellContext', 'cancellable', 'changeDir', 'cwd', 'host']);
    // A turn reaches the same conversation the session holds, not a copy.
    expect(parts.turn.conversation).toBe(parts.conversation);
    expect(parts.prompt.turn).toBe(parts.turn);
  });

  it('a cancellable run shows busy in the status it pushes, and Ctrl-C aborts it', async () => {
    const { parts, statuses } = await compose();
    let aborted = false;
    const running = parts.turn.cancellable(
      (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    );
    expect(statuses.at(-1)?.busy).toBe(true);
    expect(parts.run.busy).toBe(true);
    expect(parts.run.cancel()).toBe(true);
    await running;
    expect(aborted).toBe(true);
    expect(statuses.at(-1)?.busy).toBe(false);
    expect(parts.run.cancel()).toBe(false);
  });

  it('a usage count from a turn reaches the status line; :cd moves the directory every view sees', async () => {
    const { home, parts, statuses } = await compose();
    parts.turn.countUsage({ promptTokens: 10, completionTokens: 5 }, { estimated: false, firstOfTurn: true });
    expect(parts.status().usage?.session).toEqual({ promptTokens: 10, completionTokens: 5, estimated: false });
    const before = process.cwd();
    try {
      parts.changeDir(home);
      expect(parts.turn.cwd).toBe(realpathSync(home));
      expect(parts.userShell.cwd).toBe(realpathSync(home));
      // The status line was told (the path is shortened against the real HOME, so only its end is known).
      expect(statuses.at(-1)?.cwd.endsWith(basename(home))).toBe(true);
    } finally {
      process.chdir(before);
    }
  });
});
