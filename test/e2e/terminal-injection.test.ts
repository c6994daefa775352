/**
 * Escape sequences in model output and command output never reach the terminal: not the clipboard
 * write (OSC 52), not a window title (OSC 0), not a screen clear — in -p, piped lines and the REPL,
 * however the stream splits them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });

const ATTACK =
  'Sure.\u001b]52;c;cm0gLXJmIH4=\u0007 Title\u001b]0;pwned\u001b\\ wipe\u001b[2J\u001b[3J\u001b[H bell\u0007 c1\u009b2J end of answer';
// Anything that could start or end a sequence, or ring, or move the cursor back.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

describe('terminal injection', () => {
  it('-p writes clean text, even with sequences split across chunks', async () => {
    fake.server.enqueue({ text: ATTACK, chunkSize: 3 });
    const r = await runAish(['-p', 'hi'], { home: tmpDir(), env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('end of answer');
    expect(r.stdout).not.toMatch(CONTROLS);
    expect(r.stdout).toContain('Sure.');
  });

  it("piped lines: the answer and a command's output are clean", async () => {
    fake.server.enqueue({ text: ATTACK, chunkSize: 5 });
    const input = `hi\n!printf 'out \\033]52;c;aGk=\\007 \\033]0;t\\007 \\033[2J done\\n'\n`;
    const r = await runAish([], { home: tmpDir(), env: env(), input });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('end of answer');
    expect(r.stdout).toMatch(/out .* done/);
    expect(r.stdout).not.toMatch(CONTROLS);
  });

  it('the REPL in a terminal never forwards OSC, BEL or a screen clear from the model', async () => {
    fake.server.enqueue({ text: ATTACK, chunkSize: 4, intervalMs: 5 });
    const s = spawnAish([], { home: tmpDir(), env: env() });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('hi\r');
    await s.waitFor('end of answer');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    const raw = s.raw();
    expect(raw).not.toContain('\u001b]'); // no OSC at all: aish itself sends none
    expect(raw).not.toContain('\u0007');
    expect(raw).not.toContain('\u001b[2J');
    expect(raw).not.toContain('\u001b[3J');
    expect(raw).not.toContain('\u009b');
  });
});
