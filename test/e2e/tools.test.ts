/** run_command through the safety gate, in plain mode and -p. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import type { RecordedRequest } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const toolResult = (req: RecordedRequest) =>
  (req.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool').at(-1)?.content;

describe('run_command in chat mode', () => {
  it('asks; y runs it and the output is in the next request', async () => {
    const home = tmpDir();
    fake.server.enqueue(
      { toolCalls: [{ id: 'c1', name: 'run_command', arguments: '{"command":"echo hello-from-tool"}' }] },
      { text: 'It printed hello-from-tool.' },
    );
    const r = await runAish([], { home, env: fake.env(), input: 'say hello via the shell\ny\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('⏵ run_command: echo hello-from-tool');
    expect(r.stdout).toContain('run? [y/N/always]');
    expect(r.stdout).toContain('↳ exit code 0\n    hello-from-tool');
    expect(r.stdout).toContain('It printed hello-from-tool.');
    const [first, second] = await fake.server.waitForRequests(2);
    expect(first!.body.tools!.map((t) => t.function.name)).toContain('run_command');
    expect(toolResult(second!)).toBe('exit code 0\nhello-from-tool');
    expect(second!.body.messages.at(-2)?.tool_calls?.[0]?.function.arguments).toBe('{"command":"echo hello-from-tool"}');
  });

  it('n sends a denial to the model and runs nothing', async () => {
    const home = tmpDir();
    const marker = join(home, 'made-by-tool');
    fake.server.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: `touch ${marker}` }) }] },
      { text: 'ok, I will not.' },
    );
    const r = await runAish([], { home, env: fake.env(), input: 'make a file\nn\n' });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(r.stdout).toContain('↳ not run (declined)');
    expect(toolResult((await fake.server.waitForRequests(2))[1]!)).toBe('The user declined to run this command.');
  });

  it('a destructive command never runs on Enter, and is marked as destructive', async () => {
    const home = tmpDir();
    const victim = join(home, 'precious');
    mkdirSync(victim);
    writeFileSync(join(victim, 'data.txt'), 'keep me');
    fake.server.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: `rm -rf ${victim}` }) }] },
      { text: 'understood' },
    );
    const r = await runAish([], { home, env: fake.env(), input: 'clean up\n\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/⚠ destructive: /);
    expect(r.stdout).toContain('run? [y/N] '); // no "always" for destructive commands
    expect(existsSync(join(victim, 'data.txt'))).toBe(true);
    expect(toolResult((await fake.server.waitForRequests(2))[1]!)).toBe('The user declined to run this command.');
  });

  it('"always" is remembered for the exact command only', async () => {
    const home = tmpDir();
    const call = (cmd: string) => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command: cmd }) }] });
    fake.server.enqueue(call('echo one'), { text: 'a' }, call('echo one'), { text: 'b' }, call('echo two'), { text: 'c' });
    const r = await runAish([], { home, env: fake.env(), input: 'q1\nalways\nq2\nq3\nn\n' });
    expect(r.code).toBe(0);
    expect(r.stdout.match(/run\? \[y\/N\/always\]/g)).toHaveLength(2); // the repeat of "echo one" was not asked
    const reqs = await fake.server.waitForRequests(6);
    expect(toolResult(reqs[3]!)).toBe('exit code 0\none');
    expect(toolResult(reqs[5]!)).toBe('The user declined to run this command.');
  });

  it('with nobody to ask (-p), a command is refused, the model is told, and the exit code says the answer may be incomplete', async () => {
    const home = tmpDir();
    fake.server.enqueue({ toolCalls: [{ name: 'run_command', arguments: '{"command":"ls"}' }] }, { text: 'I could not run it.' });
    const r = await runAish(['-p', 'list files'], { home, env: fake.env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('I could not run it.');
    expect(r.stdout + r.stderr).not.toContain('run? [y/N');
    expect(r.stderr).toContain('refused: ls (needs confirmation; no one to confirm)');
    expect(r.stderr).toContain('aish: 1 tool step was refused (no one to confirm) — the answer may be incomplete');
    expect(toolResult((await fake.server.waitForRequests(2))[1]!)).toMatch(
      /^Not run: this command needs confirmation, and there was no one to confirm it/,
    );
  });

  it('bad arguments and unknown tools go back to the model as errors', async () => {
    fake.server.enqueue(
      {
        toolCalls: [
          { name: 'run_command', arguments: '{"cmd":"ls"}' },
          { name: 'nope__tool', arguments: '{}' },
        ],
      },
      { text: 'sorry' },
    );
    const r = await runAish([], { home: tmpDir(), env: fake.env(), input: 'go\n' });
    expect(r.code).toBe(0);
    const msgs = (await fake.server.waitForRequests(2))[1]!.body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(msgs.map((m: { content: string }) => m.content)).toEqual([
      'Error: missing "command" (a non-empty string)',
      expect.stringMatching(/^Error: there is no tool named nope__tool\. Available: run_command, memory_search, memory_remember$/),
    ]);
  });
});
