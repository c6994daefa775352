/**
 * Files of the data directory in odd shapes, in the real REPL (a pseudo-terminal): the prompt
 * comes up and typed lines run, whatever sits where aish keeps its prompt history.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

describe('input-history that is a FIFO', () => {
  it('the REPL starts, runs what is typed and quits; nothing waits for a writer or a reader', async () => {
    const home = tmpDir();
    const data = join(home, 'data');
    mkdirSync(data, { mode: 0o700 });
    execFileSync('mkfifo', [join(data, 'input-history')]);
    const s = spawnAish(['--data-dir', data], { home, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'k' }, cols: 160 });
    all.push(s);
    await s.waitFor('mem 0', { timeoutMs: 15_000 });
    s.write(':remember typed with a FIFO for history\r');
    await s.waitFor('memory: added 1 (fact)', { timeoutMs: 15_000 });
    s.write(':quit\r');
    expect(await s.exitCode(15_000)).toBe(0);
    expect(readFileSync(join(data, 'memory.jsonl'), 'utf8')).toContain('typed with a FIFO for history');
  });
});
