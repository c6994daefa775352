/**
 * Escape sequences in model output and command output never reach the terminal: not the clipboard
 * write (OSC 52), not a window title (OSC 0), not a screen clear — in -p, piped lines and the REPL,
 * however the stream splits them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_PAYLOADS, ESCAPE_PAYLOADS, rawEscape } from '../helpers/escape-payloads';
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

describe('the REPL: every path ends at the one output boundary', () => {
  const open = async (cwd?: string) => {
    const home = tmpDir();
    const s = spawnAish([], { home, env: env(), cwd });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');
    return s;
  };
  const done = async (s: PtySession) => {
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    expect(rawEscape(s.raw(), true)).toBeNull();
  };

  it('@ Tab completion of hostile file names, one completed into the prompt and a menu of several', async () => {
    const dir = tmpDir();
    for (const [name, p] of Object.entries(ESCAPE_PAYLOADS)) {
      const file = `evil-${name}-${p.replace(/\//g, '')}.txt`;
      writeFileSync(join(dir, file), 'x');
    }
    writeFileSync(join(dir, `solo\u001b]0;t\u0007\u202Egpj.sh`), 'x');
    const s = await open(dir);
    s.write('look at @sol\t');
    await s.waitFor('› look at @solo');
    s.write('\x15'); // clear the line
    s.write('see @evil-\t');
    await s.waitFor(/evil-/);
    await s.waitFor(/evil-tags/);
    s.write('\x03');
    await done(s);
  });

  it("a server's error body, !command output and a confirmation question", async () => {
    fake.server.setDefault({ status: 400, error: { message: `bad ${ALL_PAYLOADS} end-of-error` } });
    const s = await open();
    s.write('hi\r');
    await s.waitFor('rejected the request');
    s.write(`!printf 'out \\033]0;t\\007 \\342\\200\\256 \\302\\233 done-cmd\\n'\r`);
    await s.waitFor('[exit 0]');
    fake.server.setDefault({ text: 'ok' });
    fake.server.enqueue({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: `rm -rf ./x # ${ALL_PAYLOADS}` }) }] });
    const from = s.text().length;
    s.write('go\r');
    await s.waitFor('run? [y/N]', { from });
    s.write('n\r');
    await s.waitFor('not run (declined)', { from });
    await s.waitFor('Σ', { from }); // the turn is over
    await done(s);
  });
});
