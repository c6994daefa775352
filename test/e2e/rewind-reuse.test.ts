/** :rewind after a step whose before-state was an older checkpoint (the snapshot found nothing changed and reused it). */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import type { Reply } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const run = (command: string): Reply => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });

describe(':rewind with a reused checkpoint', () => {
  it('offers to put the files back when the only change was made by an approved step that reused an older checkpoint', async () => {
    const home = tmpDir();
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'a.txt'), 'same\n');
    // Q1's step changes nothing (a checkpoint is taken before it); Q2's step finds the files as that
    // checkpoint has them, so no new one is taken, and then writes b.txt.
    fake.server.enqueue(run('touch a.txt'), { text: 'A1' }, run('cp a.txt b.txt'), { text: 'A2' });
    const r = await runAish([], { home, cwd: work, env: env(), input: 'Q1\ny\nQ2\ny\n:rewind\ny\n' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('took back 1 exchange');
    expect(r.stdout).toMatch(
      /has ~\/work as it was before those turns; changed since: b\.txt\nfiles changed since: 1 — restore\? \[y\/N\]/,
    );
    expect(r.stdout).toMatch(/restored .*0 files written back, 1 file removed/);
    expect(existsSync(join(work, 'b.txt'))).toBe(false);
  });
});
