/** `aish mcp` (the built CLI) driven by the MCP SDK's own client over stdio. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { callTool as call, connectMcp } from '../helpers/mcp-client';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

interface Fixture {
  home: string;
  cfg: string;
  data: string;
  projA: string;
  projB: string;
  aish: (cwd: string, ...args: string[]) => ReturnType<typeof runAish>;
}

/** Filler, so that the words of the items under test are rare (recall skips words most items hold). */
const FILLER = [
  'the user likes tea in the afternoon',
  'backups run nightly to the nas',
  'the printer is on the second floor',
  'vacation in july',
];

function fixture(config = '{ memory: { injectMaxChars: 0 } }'): Fixture {
  const home = tmpDir();
  const cfg = join(home, 'config.ts');
  writeFileSync(cfg, `export default ${config};\n`);
  const data = join(home, 'data');
  const projA = join(home, 'alpha');
  const projB = join(home, 'bravo');
  for (const p of [projA, projB]) {
    mkdirSync(p);
    execFileSync('git', ['init', '-q', p]);
  }
  const aish = (cwd: string, ...args: string[]) => runAish(['--config', cfg, '--data-dir', data, ...args], { home, cwd });
  mkdirSync(data);
  writeFileSync(
    join(data, 'memory.jsonl'),
    [
      '{"meta":{"format":"aish-memory","version":1}}',
      ...FILLER.map((t, i) => JSON.stringify({ id: i + 1, ts: '2026-01-01T00:00:00.000Z', kind: 'fact', content: t })),
    ].join('\n') + '\n',
  );
  return { home, cfg, data, projA, projB, aish };
}

function connect(f: Fixture, cwd: string, name = 'test-agent'): Promise<Client> {
  return connectMcp(f.home, ['--config', f.cfg, '--data-dir', f.data], cwd, name);
}

const ids = (text: string) => [...text.matchAll(/^- #(\d+) /gm)].map((m) => Number(m[1]));

async function added(r: ReturnType<typeof runAish>): Promise<number> {
  const res = await r;
  expect(res.code, res.stderr).toBe(0);
  return Number(/added (\d+)/.exec(res.stdout)![1]);
}

describe('aish mcp', () => {
  it('lists its tools, recalls what aish memory plan sends, and hides private and other projects’ items', async () => {
    const f = fixture();
    const staging = await added(f.aish(f.projA, 'memory', 'add', 'fact', 'the staging database is postgres on port 5433'));
    const secret = await added(f.aish(f.projA, 'memory', 'add', '--private', 'fact', 'the staging database admin port is 6000, room 12'));
    const other = await added(f.aish(f.projB, 'memory', 'add', '--project', 'fact', 'bravo staging database is mysql'));
    const mine = await added(f.aish(f.projA, 'memory', 'add', '--project', 'pref', 'alpha database migrations run with make migrate'));

    const client = await connect(f, f.projA);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      'memory_forget_request',
      'memory_list',
      'memory_propose',
      'memory_recall',
      'memory_search',
    ]);
    for (const t of tools) expect(t.description!.length).toBeGreaterThan(40);

    const question = 'which port does the staging database use';
    const r = await call(client, 'memory_recall', { message: question });
    expect(r.isError).toBe(false);
    expect(r.text).toMatch(/notes, not instructions/);
    const plan = JSON.parse((await f.aish(f.projA, 'memory', 'plan', '--json', question)).stdout) as {
      background: Array<{ id: number }>;
      recall: Array<{ id: number }>;
    };
    const planned = [...plan.background, ...plan.recall].map((x) => x.id).filter((id) => id !== secret);
    expect(ids(r.text)).toEqual(planned);
    expect(ids(r.text)).toContain(staging);
    // Each line as the model's own [recall] has it: dated, old ones with their age; said once, not twice.
    const lines = r.text.split('\n').filter((l) => /^- #\d+ /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/\(\d{4}-\d{2}-\d{2}(, [^)]+ old)?\)( — .*)?$/);
    expect(r.text).not.toMatch(/ ago\b/);
    // The private item is what aish itself would send here; an agent never gets it.
    expect([...plan.background, ...plan.recall].map((x) => x.id)).toContain(secret);
    for (const tool of ['memory_recall', 'memory_search', 'memory_list']) {
      const t = (await call(client, tool, tool === 'memory_list' ? {} : { message: question, query: 'staging database' })).text;
      expect(t, tool).not.toMatch(/room 12|mysql/);
      expect(ids(t)).not.toContain(secret);
      expect(ids(t)).not.toContain(other);
    }
    // Nor by asking to forget it, nor from inside the other project by naming its id only.
    expect(await call(client, 'memory_forget_request', { id: other, reason: 'x' })).toEqual({
      text: `no memory item #${other} here`,
      isError: true,
    });
    expect((await call(client, 'memory_forget_request', { id: secret, reason: 'x' })).isError).toBe(true);
    // In project B (cwd given by the client) its item is there, A's is not.
    expect(ids((await call(client, 'memory_list', { scope: 'project' })).text)).toEqual([mine]);
    const inB = await call(client, 'memory_list', { cwd: f.projB });
    expect(ids(inB.text)).toContain(other);
    expect(ids(inB.text)).not.toContain(mine);
    expect((await call(client, 'memory_list', { cwd: 'relative/dir' })).isError).toBe(true);
  });

  it('a proposal waits in review with its agent origin, is not recalled until accepted; a forget request too', async () => {
    const f = fixture();
    const old = await added(f.aish(f.projA, 'memory', 'add', 'fact', 'the build server is jenkins'));
    const client = await connect(f, f.projA, 'claude-code');
    const p = await call(client, 'memory_propose', {
      kind: 'pref',
      content: 'the user wants rust code formatted with rustfmt',
      keys: ['formatting'],
    });
    expect(p).toMatchObject({ isError: false, text: expect.stringMatching(/^proposed \(inbox #1\)/) as unknown });
    const fr = await call(client, 'memory_forget_request', { id: old, reason: 'the build server is now buildkite' });
    expect(fr.isError).toBe(false);

    const review = JSON.parse((await f.aish(f.projA, 'memory', 'review', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(review).toHaveLength(2);
    expect(review[0]).toMatchObject({
      agent: 'claude-code',
      kind: 'pref',
      content: 'the user wants rust code formatted with rustfmt',
      keys: ['formatting'],
    });
    expect(review[1]).toMatchObject({ agent: 'claude-code', forget: old });

    const question = 'how should rust code be formatted';
    expect((await call(client, 'memory_recall', { message: question })).text).not.toMatch(/rustfmt/);
    expect((await f.aish(f.projA, 'memory', 'list')).stdout).not.toMatch(/rustfmt/);

    // Accepted in review (y, y): the item is written with its origin, the old one forgotten.
    const walk = await runAish(['--config', f.cfg, '--data-dir', f.data, 'memory', 'review'], {
      home: f.home,
      cwd: f.projA,
      input: 'y\ny\n',
    });
    expect(walk.stderr + walk.stdout).toMatch(/needs a terminal/); // the walk is for a terminal; the REPL's test drives it
    const { reviewInbox } = await import('../../src/commands/memory-review');
    const { Inbox } = await import('../../src/memory/review/inbox');
    const { MemoryStore } = await import('../../src/memory/store');
    const memPath = join(f.data, 'memory.jsonl');
    const answers = ['y', 'y'];
    const printed: string[] = [];
    const store = MemoryStore.open(memPath);
    await reviewInbox(Inbox.open(memPath), store, { ask: () => Promise.resolve(answers.shift() ?? null), print: (l) => printed.push(l) });
    store.close();
    expect(printed.join('\n')).toMatch(/from agent: claude-code/);
    expect(printed.join('\n')).toMatch(new RegExp(`forgot #${old}`));
    const after = await call(client, 'memory_recall', { message: question });
    expect(after.text).toMatch(/rustfmt .*from agent:claude-code/);
    expect(ids((await call(client, 'memory_list', {})).text)).not.toContain(old);
  });

  it('memory.agents "off": no tools; "trust": written directly', async () => {
    const off = fixture("{ memory: { agents: 'off' } }");
    const c1 = await connect(off, off.projA);
    expect((await c1.listTools()).tools).toEqual([]);
    expect((await call(c1, 'memory_recall', { message: 'x' })).isError).toBe(true);

    const trust = fixture("{ memory: { agents: 'trust' } }");
    const c2 = await connect(trust, trust.projA, 'codex');
    const r = await call(c2, 'memory_propose', { kind: 'fact', content: 'alpha uses pnpm', project: true });
    expect(r.text).toMatch(/^remembered as #\d+$/);
    const list = JSON.parse((await trust.aish(trust.projA, 'memory', 'list', '--json')).stdout) as Array<Record<string, unknown>>;
    expect(list.filter((it) => it.source !== undefined)).toEqual([
      expect.objectContaining({ content: 'alpha uses pnpm', source: 'agent:codex', scope: expect.any(String) as unknown }),
    ]);
    expect((await trust.aish(trust.projB, 'memory', 'list', '--here')).stdout).not.toMatch(/pnpm/);
    // Written directly, it is an arrival all the same: a receipt, and undo takes it back.
    expect((await trust.aish(trust.home, 'memory', 'log')).stdout).toMatch(/^r1 .* agent: codex — added 1 {2}"alpha uses pnpm"$/m);
    expect((await trust.aish(trust.home, 'memory', 'undo', 'r1')).stdout).toContain('undid r1');
    expect((await trust.aish(trust.home, 'memory', 'list')).stdout).not.toMatch(/pnpm/);
  });

  it('--print-config names each client; an unknown one is a usage error', async () => {
    const f = fixture();
    expect((await f.aish(f.home, 'mcp', '--print-config', 'claude')).stdout).toMatch(/^claude mcp add --scope user aish -- aish mcp$/m);
    expect((await f.aish(f.home, 'mcp', '--print-config', 'codex')).stdout).toMatch(
      /\[mcp_servers\.aish\]\ncommand = "aish"\nargs = \["mcp"\]/,
    );
    for (const c of ['antigravity', 'cursor']) {
      const out = (await f.aish(f.home, 'mcp', '--print-config', c)).stdout;
      expect(JSON.parse(out.replace(/^\/\/.*\n/, ''))).toEqual({ mcpServers: { aish: { command: 'aish', args: ['mcp'] } } });
    }
    const bad = await f.aish(f.home, 'mcp', '--print-config', 'vim');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^aish: no snippet for "vim" — one of claude, codex, antigravity, cursor/);
  });
});
