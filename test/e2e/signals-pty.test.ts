/**
 * The REPL ended by a signal (SIGTERM, or SIGHUP: the terminal closed) in the middle of something:
 * an answer being streamed is kept in the session log, marked interrupted, as Ctrl-C keeps it; a
 * `!cmd` child is not left running.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/sessions/sessions';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

// A long answer, streamed slowly: the signal comes while it is on its way.
const fake = useFakeOpenAI({
  defaultReply: { text: Array.from({ length: 4000 }, (_, i) => `w${i}`).join(' '), chunkSize: 6, intervalMs: 5 },
});
const start = ptySessions(() => fake.env(), { cols: 100, rows: 30 });

/** Processes whose command line is exactly `cmd`. */
function running(cmd: string): string[] {
  try {
    return execFileSync('pgrep', ['-fx', cmd], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when none matches
  }
}

describe('the REPL ended by a signal', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    '%s while an answer streams: the part that came is in the session log, marked interrupted',
    async (sig) => {
      const data = join(tmpDir(), 'data');
      const s = start(tmpDir(), ['--data-dir', data]);
      await s.waitFor('mem 0');
      s.write('tell me everything\r');
      await s.waitFor('w40 ');
      s.pty.kill(sig);
      await s.exited;
      const [log] = readdirSync(join(data, 'sessions'));
      const turns = loadSession(join(data, 'sessions', log!)).turns;
      expect(turns.map((t) => t.role)).toEqual(['user', 'assistant']);
      expect(turns[1]).toMatchObject({ meta: 'interrupted' });
      expect(String(turns[1]!.content)).toMatch(/^w0 w1 w2 .* w40 /s);
    },
  );

  it.each(['SIGTERM', 'SIGHUP'] as const)('%s while a !cmd child runs: the child does not outlive aish', async (sig) => {
    const cmd = `sleep 47${sig === 'SIGHUP' ? 1 : 2}`;
    const s = start(tmpDir(), ['--data-dir', join(tmpDir(), 'data')]);
    await s.waitFor('mem 0');
    s.write(`!${cmd}\r`);
    await waitUntil(() => running(cmd).length > 0, `${cmd} started`);
    s.pty.kill(sig);
    await s.exited;
    await waitUntil(() => running(cmd).length === 0, `${cmd} gone after ${sig}`);
    expect(running(cmd)).toEqual([]);
  });
});
