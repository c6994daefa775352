/** Norris in the real REPL in a pseudo-terminal: step budget, progress, the destructive-step prompt, Ctrl-C. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText, type Reply } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { isRunning, waitForDescendant } from '../helpers/wait';

const fake = useFakeOpenAI();
const call = (command: string): Reply => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });

async function start(home: string): Promise<PtySession> {
  const s = spawnAish([], { home, env: fake.env(), cols: 140 });
  await s.waitFor('fast (gpt-4o-mini)');
  return s;
}

describe('Norris in the REPL', () => {
  it('norris.maxSteps stops a model that never finishes', async () => {
    const home = tmpDir();
    writeFileSync(join(home, 'config.ts'), 'export default { norris: { maxSteps: 2 } };\n');
    const s = spawnAish(['--config', join(home, 'config.ts')], { home, env: fake.env(), cols: 140 });
    await s.waitFor('fast (gpt-4o-mini)');
    fake.server.setDefault(call('echo again'));
    s.write(':norris never stop\r');
    await s.waitFor('NORRIS step 2/2');
    await s.waitFor('NORRIS ended: step budget used up after 2/2 steps');
    expect(fake.server.requests).toHaveLength(2);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('a three-step goal runs to the end showing step k/N; [background] returns afterwards', async () => {
    const home = tmpDir();
    const s = await start(home);
    s.write(':remember User likes tea.\r');
    await s.waitFor('mem 1');
    fake.server.enqueue(call('echo first'), call('echo second'), { text: 'All three steps done.' }, { text: 'back to chat' });
    s.write(':norris run two echo commands\r');
    await s.waitFor('NORRIS step 1/8');
    await s.waitFor('NORRIS step 3/8');
    await s.waitFor('NORRIS ended: done after 3/8 steps');
    await s.waitFor('All three steps done.');
    const mark = s.text().length;
    s.write('hello again\r');
    await s.waitFor('back to chat', { from: mark });
    const reqs = fake.server.requests;
    expect(reqs).toHaveLength(4);
    for (const q of reqs.slice(0, 3)) {
      expect(systemText(q)).toContain('[NORRIS MODE]');
      expect(systemText(q)).not.toContain('[background]');
    }
    expect(systemText(reqs[3]!)).toContain('- (fact) User likes tea.');
    expect(systemText(reqs[3]!)).not.toContain('[NORRIS MODE]');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('a destructive step asks, and Enter refuses it', async () => {
    const s = await start(tmpDir());
    fake.server.enqueue(call('rm -rf /tmp/aish-norris-never-exists'), { text: 'Skipped the deletion.' });
    s.write(':norris tidy up\r');
    await s.waitFor('⚠ destructive');
    await s.waitFor('run? [y/N]');
    s.write('\r');
    await s.waitFor('NORRIS ended: done after 2/8 steps (1 declined)');
    const tool = fake.server.requests[1]!.body.messages.filter((m) => m.role === 'tool')[0];
    expect(tool?.content).toBe('The user declined to run this command.');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Ctrl-C stops a running goal and the REPL is usable', async () => {
    const s = await start(tmpDir());
    fake.server.setDefault(call('sleep 20'));
    s.write(':norris wait a lot\r');
    await s.waitFor('run_command: sleep 20');
    // Ctrl-C must land while the step's command runs: wait until it does.
    const sleeper = await waitForDescendant(s.pty.pid, /^sleep 20$/);
    s.write('\x03');
    await s.waitFor('NORRIS ended: stopped after 1/8 steps');
    expect(isRunning(sleeper.pid)).toBe(false);
    fake.server.setDefault({ text: 'chatting again' });
    const mark = s.text().length;
    s.write('are you back?\r');
    await s.waitFor('chatting again', { from: mark });
    expect(lastUserText(fake.server.requests.at(-1)!)).toBe('are you back?');
    expect(systemText(fake.server.requests.at(-1)!)).not.toContain('[NORRIS MODE]');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
