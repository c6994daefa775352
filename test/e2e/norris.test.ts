/** Norris from the command line (plain mode) and the system prompt it composes. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { systemText, type RecordedRequest, type Reply } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const call = (command: string): Reply => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });

describe('aish --norris', () => {
  it('--yes completes a scripted goal with a destructive step and exits 0', async () => {
    const home = tmpDir();
    const dir = join(home, 'build');
    mkdirSync(dir);
    writeFileSync(join(dir, 'old.o'), 'x');
    fake.server.enqueue(call(`ls ${dir}`), call(`rm -rf ${dir}`), { text: 'Cleaned the build directory.' });
    // Run in home: with a sandbox, a step may write only inside aish's working directory.
    const r = await runAish(['--norris', 'clean the build dir', '--yes'], { home, cwd: home, env: fake.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(r.stdout).toContain('NORRIS step 1/8');
    expect(r.stdout).toContain('NORRIS step 3/8');
    expect(r.stdout).toContain('NORRIS ended: done after 3/8 steps');
    const reqs = await fake.server.waitForRequests(3);
    for (const q of reqs) {
      expect(systemText(q)).toContain('[NORRIS MODE]');
      expect(systemText(q)).toContain('GOAL: clean the build dir');
    }
  });

  it('without --yes a destructive step is refused, reported, and the exit code is 1', async () => {
    const home = tmpDir();
    const dir = join(home, 'build');
    mkdirSync(dir);
    fake.server.enqueue(call(`rm -rf ${dir}`), { text: 'I could not delete it.' });
    const r = await runAish(['--norris', 'clean the build dir'], { home, env: fake.env() });
    expect(r.code).toBe(1);
    expect(existsSync(dir)).toBe(true);
    expect(r.stderr).toContain(`refused: rm -rf ${dir} (destructive; no one to confirm)`);
    expect(r.stderr).toContain('NORRIS ended: done after 2/8 steps (1 refused)');
    expect(r.stderr).toContain('rerun with --yes to allow destructive steps');
    const tool = (await fake.server.waitForRequests(2))[1]!.body.messages.filter((m) => m.role === 'tool')[0];
    expect(tool?.content).toMatch(/^Not run: this command is destructive \(.*\), and there was no one to confirm it .*--yes/);
  });

  it('non-destructive steps run without asking; the step budget stops a model that never finishes', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { norris: { maxSteps: 3 } };\n');
    fake.server.setDefault(call('echo again'));
    const r = await runAish(['--config', cfg, '--norris', 'loop forever'], { home, env: fake.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NORRIS ended: step budget used up after 3/3 steps — the step budget (3) ran out before the model finished');
    expect(fake.server.requests).toHaveLength(3);
  });

  it('requests during Norris carry NORRIS and no [background]; the next one after has [background] again', async () => {
    const home = tmpDir();
    await runAish(['memory', 'add', 'fact', 'User likes tea.'], { home });
    fake.server.enqueue(call('echo step'), { text: 'goal reached' }, { text: 'normal answer' });
    const r = await runAish([], { home, env: fake.env(), input: ':norris say hi\nand now?\n' });
    expect(r.code).toBe(0);
    const reqs: RecordedRequest[] = await fake.server.waitForRequests(3);
    expect(systemText(reqs[0]!)).toContain('[NORRIS MODE]');
    expect(systemText(reqs[0]!)).not.toContain('[background]');
    expect(systemText(reqs[1]!)).not.toContain('[background]');
    expect(systemText(reqs[2]!)).not.toContain('[NORRIS MODE]');
    expect(systemText(reqs[2]!)).toContain('[background] (memory loaded at startup; managed via :memory)\n- (fact) User likes tea.');
    expect(r.stdout).toContain('NORRIS ended: done after 2/8 steps');
  });

  it('usage mistakes exit 2', async () => {
    const home = tmpDir();
    expect(await runAish(['--yes'], { home, env: fake.env() })).toMatchObject({ code: 2, stderr: 'aish: --yes only goes with --norris\n' });
    expect(await runAish(['--norris', ' '], { home, env: fake.env() })).toMatchObject({ code: 2 });
  });
});
