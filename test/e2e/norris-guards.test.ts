/**
 * The lines of defence behind the gate, end to end: a Norris step runs in the sandbox (it cannot
 * write outside aish's directory or reach the network), and a step that deleted a tracked
 * directory is undone by one :restore.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { sandboxRuns } from '../helpers/jail';
import type { Reply } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const call = (command: string): Reply => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });
// Also in CI wherever bubblewrap is installed: a sandbox that stopped working fails there.
const bwrapWorks = sandboxRuns;
const toolResults = (body: { messages: Array<{ role: string; content: string }> }) =>
  body.messages.filter((m) => m.role === 'tool').map((m) => m.content);

describe('Norris behind the sandbox and checkpoints', () => {
  it.skipIf(!bwrapWorks)(
    `a step cannot write outside aish's directory or reach the network${bwrapWorks ? '' : ' (SKIPPED: bubblewrap is not usable here)'}`,
    async () => {
      let hits = 0;
      const server = createServer((_req, res) => {
        hits++;
        res.end('reached');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      // Not under /tmp: the sandbox gives each command a private /tmp, where a write would vanish
      // rather than fail. Under /var/tmp it meets the read-only file system.
      const home = mkdtempSync('/var/tmp/aish-guards-');
      try {
        const work = join(home, 'work');
        mkdirSync(work);
        fake.server.enqueue(
          call(`touch ${join(home, 'outside')}; echo "touch exit $?"`),
          call(`node -e "fetch('http://127.0.0.1:${port}/').then(() => console.log('reached'), () => console.log('no network'))"`),
          call('echo inside > made-here.txt'),
          { text: 'Done.' },
        );
        const r = await runAish(['--norris', 'try things', '--yes'], { home, cwd: work, env: fake.env() });
        expect(r.stdout).toMatch(/NORRIS: try things \(at most 8 steps; sandboxed: bubblewrap/);
        expect(existsSync(join(home, 'outside'))).toBe(false);
        expect(hits).toBe(0);
        expect(readFileSync(join(work, 'made-here.txt'), 'utf8')).toBe('inside\n');
        const results = toolResults((await fake.server.waitForRequests(4))[3]!.body);
        expect(results[0]).toMatch(/touch exit 1/);
        expect(results[1]).toMatch(/no network/);
      } finally {
        server.close();
        rmSync(home, { recursive: true, force: true });
      }
    },
  );

  it('a Norris step that deleted a tracked directory is undone by one :restore', async () => {
    const home = tmpDir();
    const work = join(home, 'work');
    mkdirSync(join(work, 'data', 'deep'), { recursive: true });
    writeFileSync(join(work, 'data', 'a.txt'), 'alpha');
    writeFileSync(join(work, 'data', 'deep', 'b.bin'), Buffer.from([0, 1, 2, 255]));
    fake.server.enqueue(call('rm -rf data'), { text: 'Removed data.' });
    // The destructive step asks: the next line answers y. Then :restore asks too: y.
    const r = await runAish([], { home, cwd: work, env: fake.env(), input: ':norris clean up\ny\n:checkpoints\n:restore\ny\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('NORRIS ended: done');
    expect(r.stdout).toMatch(/1 +[0-9a-f]{8} .*rm -rf data/);
    expect(readFileSync(join(work, 'data', 'a.txt'), 'utf8')).toBe('alpha');
    expect(readFileSync(join(work, 'data', 'deep', 'b.bin'))).toEqual(Buffer.from([0, 1, 2, 255]));
  });
});

describe(':tools says how steps that are not read-only run', () => {
  it.each([
    [
      'off',
      /Norris: steps that run unasked \(read-only ones too\) run in the sandbox; no sandbox, so only read-only steps run and the rest ask/,
    ],
    [
      'required',
      bwrapWorks ? /run in the sandbox; sandboxed: bubblewrap [\d.]+, network off/ : /no sandbox \(required\): only read-only steps run/,
    ],
  ])('with safety.sandbox %s', async (mode, expected) => {
    const home = tmpDir();
    writeFileSync(join(home, 'config.ts'), `export default { safety: { sandbox: '${mode}' } };\n`);
    const r = await runAish(['--config', join(home, 'config.ts')], { home, env: fake.env(), input: ':tools\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(expected);
  });
});
