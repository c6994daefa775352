/** Shell commands from the REPL in a real pseudo-terminal: full-screen hand-off, Ctrl-C, cd. */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { descendants, isRunning, waitForDescendant } from '../helpers/wait';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

function start(home: string, cwd?: string): PtySession {
  const s = spawnAish([], { home, env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' }, ...(cwd && { cwd }) });
  sessions.push(s);
  return s;
}

describe('shell commands in the REPL', () => {
  it('a full-screen program gets the real terminal, and the UI comes back after', async () => {
    const home = tmpDir();
    const file = join(home, 'notes.txt');
    writeFileSync(file, 'line from the file\n');
    const s = start(home);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(`!less ${file}\r`);
    // less has the terminal once its prompt is drawn below the file: a key typed earlier could be
    // read by aish, or discarded when less sets up the terminal.
    await s.waitFor(/line from the file[\s\S]*\(END\)/);
    s.write('q'); // keys go to less, not to aish
    const mark = s.text().length;
    await s.waitFor('fast (gpt-4o-mini)', { from: mark });
    fake.server.enqueue({ text: 'back again' });
    s.write('are you there?\r');
    await s.waitFor('back again', { from: mark });
    expect(lastUserText(fake.server.requests.at(-1)!)).toBe('are you there?');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('!!cmd gives any program the terminal: it reads a line typed by the user', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    // the child's prompt is built at run time so it does not match the echoed command line
    s.write(`!!sh -c 'printf "%s%s? " na me; read x; echo "got=$x"'\r`);
    await s.waitFor('name?');
    // Marked before the answer: the frame may come back in the same write as the child's last line.
    const mark = s.text().length;
    s.write('ada\r');
    await s.waitFor('got=ada', { from: mark });
    await s.waitFor(/got=ada[\s\S]*fast \(gpt-4o-mini\)/, { from: mark });
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Ctrl-C stops a running !command, the command is gone, and the prompt returns', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('!sleep 30\r');
    // Ctrl-C cancels the command only once it runs (before that it is a key for the input line).
    const sleeper = await waitForDescendant(s.pty.pid, /^sleep 30$/);
    const mark = s.text().length;
    s.write('\x03');
    await s.waitFor(/\$ sleep 30\s+\[(killed by SIGINT|exit 130)\]/, { from: mark });
    expect(isRunning(sleeper.pid)).toBe(false);
    expect(descendants(s.pty.pid).filter((p) => p.state !== 'Z')).toEqual([]);
    // the REPL answers again
    fake.server.enqueue({ text: 'still here' });
    s.write('hello\r');
    await s.waitFor('still here', { from: mark });
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('!cd changes the directory shown in the status line and used by later commands', async () => {
    const home = tmpDir();
    const sub = join(home, 'project');
    mkdirSync(sub);
    const s = start(home, home);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('!cd project\r');
    await s.waitFor(realpathSync(sub));
    s.write('!pwd\r');
    await s.waitFor(/\$ pwd\s+.*project\s+\[exit 0\]/);
    s.write(':cd /nonexistent-dir\r');
    await s.waitFor('cd: /nonexistent-dir: no such directory');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
