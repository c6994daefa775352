/**
 * The user's command rules hold for MCP tools too: a server that runs what it is given (a real
 * stdio server, test/fixtures/mcp/shell-server.mjs) cannot be used to walk around `deny rm` under
 * `aish --norris --yes`, whether the command is one string or a program and its arguments. A call
 * whose arguments meet no rule runs as before.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeToolName } from '../../src/tools/mcp/tool-info';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import type { Reply } from '../helpers/openai-server';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const SERVER = join(ROOT, 'test', 'fixtures', 'mcp', 'shell-server.mjs');
const tool = (name: string) => sanitizeToolName('shell', name, new Set());
const call = (name: string, args: unknown): Reply => ({ toolCalls: [{ name: tool(name), arguments: JSON.stringify(args) }] });

function setUp(rules: string[]) {
  const home = tmpDir();
  const work = join(home, 'work');
  mkdirSync(join(work, 'victim'), { recursive: true });
  writeFileSync(join(work, 'victim', 'precious.txt'), 'keep me');
  const server = { command: process.execPath, args: [SERVER], cwd: work };
  writeFileSync(
    join(home, 'config.ts'),
    `export default { safety: { sandbox: 'off', rules: ${JSON.stringify(rules)} }, mcp: { servers: { shell: ${JSON.stringify(server)} } } };\n`,
  );
  const run = () => runAish(['--config', join(home, 'config.ts'), '--norris', 'clean up', '--yes'], { home, cwd: work, env: fake.env() });
  return { work, run };
}

describe('command rules and MCP tools, under aish --norris --yes', () => {
  it.each([
    ['one command string', call('run', { command: 'rm -rf victim' })],
    ['a wrapped command string', call('run', { command: 'cd . && sh -c "rm -rf victim"' })],
    ['a program and its arguments', call('exec', { program: 'rm', args: ['-rf', 'victim'] })],
    ['a shell and its arguments', call('exec', { program: 'bash', args: ['-c', 'rm -rf victim'] })],
  ])('deny rm refuses %s; the victim survives and the model is told the rule', async (_what, reply) => {
    const s = setUp(['deny rm']);
    fake.server.enqueue(reply, { text: 'Done.' });
    const r = await s.run();
    expect(existsSync(join(s.work, 'victim', 'precious.txt')), r.stdout + r.stderr).toBe(true);
    expect(r.stderr).toContain('denied by the rule "deny rm"');
    const [, second] = await fake.server.waitForRequests(2);
    const told = second!.body.messages.filter((m) => m.role === 'tool').at(-1)?.content;
    expect(told).toMatch(/^Not run: denied by the rule "deny rm"/);
  });

  it('a call that meets no rule runs as before (and without rules, so does rm)', async () => {
    const s = setUp(['deny rm']);
    fake.server.enqueue(call('run', { command: 'echo made > out.txt' }), { text: 'Done.' });
    const r = await s.run();
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(s.work, 'out.txt'), 'utf8')).toBe('made\n');
    const t = setUp([]);
    fake.server.enqueue(call('exec', { program: 'rm', args: ['-rf', 'victim'] }), { text: 'Done.' });
    expect((await t.run()).code).toBe(0);
    expect(existsSync(join(t.work, 'victim'))).toBe(false);
  });
});
