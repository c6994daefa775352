/** MCP servers through the real CLI and REPL: tools offered and called, start-up in the background, no leftover processes. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ROOT } from '../helpers/paths';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { isRunning, waitForDescendant, waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A config with server-everything (marked so its processes can be found) and a broken server. */
function config(home: string, mark: string, extra = ''): string {
  const p = join(home, 'config.ts');
  writeFileSync(
    p,
    `export default { mcp: { servers: {
      everything: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(EVERYTHING)}, 'stdio'], env: { AISH_TEST_MARK: ${JSON.stringify(mark)} } },
      ${extra}
    } } };\n`,
  );
  return p;
}

/** pids of live processes whose environment carries the mark. */
function marked(mark: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/environ`, 'utf8').includes(`AISH_TEST_MARK=${mark}`)) out.push(Number(d));
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/**
 * Chat until the model is offered `tool`: before each request aish itself waits (up to 5 s) for
 * servers still starting, so no sleeps are needed here. Then :tools must show the server ready.
 */
async function untilOffered(s: PtySession, tool: string, server: string): Promise<void> {
  for (let i = 0; ; i++) {
    const from = s.text().length;
    const seen = fake.server.requests.length;
    s.write(`tools yet ${i}?\r`);
    await s.waitFor(`echo: tools yet ${i}?`, { from });
    const offered = (fake.server.requests[seen]!.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
    if (offered.includes(tool)) break;
    if (i === 5) throw new Error(`${tool} never offered; last request offered ${offered.join(', ')}`);
  }
  const from = s.text().length;
  s.write(':tools\r');
  await s.waitFor(new RegExp(`MCP ${server}: ready, \\d+ tools`), { from });
}

const getSum = { toolCalls: [{ name: 'everything__get-sum', arguments: '{"a":20,"b":22}' }] };

describe('MCP servers', () => {
  it('lists the tools, calls everything__get-sum (42 reaches the model), reports a broken server, and leaves no process behind', async () => {
    const home = tmpDir();
    const mark = `m${process.pid}${Date.now()}`;
    const cfg = config(home, mark, "broken: { command: 'no-such-mcp-server-binary' },");
    fake.server.enqueue(getSum, { text: 'The sum is 42.' });
    const r = await runAish(['--config', cfg], { home, env: fake.env(), input: 'add 20 and 22\n:tools\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('The sum is 42.');
    expect(r.stdout).toMatch(/MCP everything: ready, \d+ tools/);
    expect(r.stdout).toMatch(/everything__get-sum\s+Returns the sum of two numbers \(read-only\)/);
    expect(r.stdout).toMatch(/MCP broken: failed: /);
    expect(r.stderr).toMatch(/aish: warning: MCP server broken: .* — skipped/);
    expect(r.stderr.match(/MCP server broken/g)).toHaveLength(1); // reported once
    const [first, second] = await fake.server.waitForRequests(2);
    const names = first!.body.tools!.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['run_command', 'everything__get-sum', 'everything__echo']));
    const tool = second!.body.messages.filter((m) => m.role === 'tool').at(-1);
    expect(tool?.content).toContain('42');
    expect(marked(mark)).toEqual([]);
  });

  it('the prompt appears before servers finish starting', async () => {
    const home = tmpDir();
    const mark = `s${process.pid}${Date.now()}`;
    // a server that takes 3 s to start
    const cfg = config(home, mark, `slow: { command: '/bin/sh', args: ['-c', 'sleep 3; exec ${process.execPath} ${EVERYTHING} stdio'] },`);
    const s = spawnAish(['--config', cfg], { home, env: fake.env() });
    try {
      await s.waitFor('fast (gpt-4o-mini)');
      s.write(':tools\r');
      await s.waitFor('MCP slow: starting');
      await untilOffered(s, 'slow__get-sum', 'slow');
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
      await waitUntil(() => marked(mark).length === 0, 'the MCP servers to end after aish exits', {
        detail: () => `still running: ${marked(mark).join(', ')}`,
      });
    } finally {
      s.kill();
    }
  });

  it('Ctrl-C inside !sleep 10 does not kill the MCP servers: the next tool call works', async () => {
    const home = tmpDir();
    const mark = `c${process.pid}${Date.now()}`;
    const cfg = config(home, mark);
    const s = spawnAish(['--config', cfg], { home, env: fake.env() });
    try {
      await s.waitFor('fast (gpt-4o-mini)');
      await untilOffered(s, 'everything__get-sum', 'everything');
      const before = marked(mark);
      expect(before.length).toBeGreaterThan(0);
      s.write('!sleep 10\r');
      // Ctrl-C must land while the command runs: wait until it does.
      const sleeper = await waitForDescendant(s.pty.pid, /^sleep 10$/);
      const mark2 = s.text().length;
      s.write('\x03');
      await s.waitFor(/\[(killed by SIGINT|exit 130)\]/, { from: mark2 });
      expect(isRunning(sleeper.pid)).toBe(false);
      expect(marked(mark)).toEqual(before);
      fake.server.enqueue(getSum, { text: 'still 42' });
      const from = s.text().length;
      s.write('add them\r');
      await s.waitFor('still 42', { from });
      expect(
        fake.server.requests
          .at(-1)!
          .body.messages.filter((m) => m.role === 'tool')
          .at(-1)?.content,
      ).toContain('42');
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
    } finally {
      s.kill();
    }
  });
});
