/** The one tool-call path, with a fake tool: what is shown, asked, run and returned to the model. */
import { describe, expect, it } from 'vitest';
import type { StepVerdict, StepWatch } from '../../src/checkpoints/step-watch';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { executeToolCall, type ToolCallContext } from '../../src/core/tool-call';
import type { GateSubject } from '../../src/tools/gate';
import type { Sandbox } from '../../src/tools/sandbox';
import type { Tool, ToolRunContext } from '../../src/tools/tool';
import { recordingHost } from '../helpers/host';

function fakeTool(name: string, gate: GateSubject, ran: string[], sandboxes: Array<string | undefined>, unasked: boolean[] = []): Tool {
  return {
    name,
    spec: { type: 'function', function: { name, parameters: { type: 'object' } } },
    async prepare(raw) {
      const args = JSON.parse(raw || '{}') as { x?: string };
      if (!args.x) return { error: 'missing "x"' };
      return {
        title: `${name}: ${args.x}`,
        subject: args.x,
        gate,
        run: async (ctx: ToolRunContext) => {
          ran.push(args.x!);
          sandboxes.push(ctx.sandbox?.name);
          unasked.push(ctx.unasked ?? false);
          ctx.onOutput?.('live');
          return { content: `did ${args.x}`, status: 'exit code 0', output: 'line 1\nline 2\n' };
        },
      };
    },
  };
}

function setup(gate: GateSubject, answers: Array<string | null>, over: Partial<ToolCallContext> = {}) {
  const { host, printed, asked } = recordingHost(answers);
  const ran: string[] = [];
  const sandboxes: Array<string | undefined> = [];
  const checkpoints: string[] = [];
  const unasked: boolean[] = [];
  const always = new Set<string>();
  const tool = fakeTool('run_command', gate, ran, sandboxes, unasked);
  const ctx: ToolCallContext = {
    host,
    toolbox: {
      find: (n) => (n === tool.name ? tool : undefined),
      tools: () => [tool],
      isAlwaysAllowed: (k) => always.has(k),
      allowAlways: (k) => void always.add(k),
    },
    cwd: '/',
    mode: 'chat',
    confirmCommands: true,
    yes: false,
    sandbox: null,
    sandboxRequired: false,
    checkpoint: async (label) => void checkpoints.push(label),
    signal: new AbortController().signal,
    ...over,
  };
  const call = (x: string | undefined, name = 'run_command') =>
    executeToolCall({ id: 'c1', type: 'function', function: { name, arguments: JSON.stringify(x === undefined ? {} : { x }) } }, ctx);
  return { call, host, printed, asked, ran, sandboxes, checkpoints, unasked };
}

const plain: GateSubject = { kind: 'command', destructive: false, alwaysKey: 'ls' };
const destructive: GateSubject = { kind: 'command', destructive: true, reasons: ['rm -rf'], alwaysKey: 'rm -rf x' };

describe('one tool-call path', () => {
  it('asks, runs on y, shows the call, its status and a preview, and returns the output', async () => {
    const t = setup(plain, ['y']);
    expect(await t.call('ls')).toEqual({ content: 'did ls', refused: false, denied: false });
    expect(t.asked).toEqual(['run? [y/N/always] ']);
    expect(t.ran).toEqual(['ls']);
    expect(t.printed.map((p) => p.text)).toEqual(['⏵ run_command: ls', '  ↳ exit code 0\n    line 1\n    line 2']);
  });

  it('Enter declines: nothing runs and the model is told', async () => {
    const t = setup(plain, ['']);
    expect(await t.call('ls')).toEqual({ content: 'The user declined to run this command.', refused: false, denied: true });
    expect(t.ran).toEqual([]);
    expect(t.printed.at(-1)).toEqual({ kind: 'info', text: '  ↳ not run (declined)' });
  });

  it('nobody to ask refuses, naming why (destructive) and how to allow it', async () => {
    const t = setup(destructive, [null]);
    const r = await t.call('rm -rf x');
    expect(r.refused).toBe(true);
    expect(r.content).toBe(
      'Not run: this command is destructive (rm -rf), and there was no one to confirm it (no terminal; aish --norris runs destructive steps only with --yes). Try a safer way, or stop and explain.',
    );
    expect(t.printed.at(-1)).toEqual({ kind: 'warn', text: 'refused: rm -rf x (destructive; no one to confirm)' });
    expect(t.ran).toEqual([]);
  });

  it('"always" is remembered by the exact key and never offered for destructive calls', async () => {
    const t = setup(plain, ['always']);
    await t.call('ls');
    await t.call('ls');
    expect(t.asked).toEqual(['run? [y/N/always] ']);
    expect(t.ran).toEqual(['ls', 'ls']);
    const d = setup(destructive, ['always']);
    expect((await d.call('rm -rf x')).denied).toBe(true);
    expect(d.asked).toEqual(['run? [y/N] ']);
  });

  it('Norris runs read-only calls unasked; --yes lets destructive ones run', async () => {
    const n = setup({ ...plain, safe: true }, [], { mode: 'norris' });
    await n.call('ls');
    expect(n.asked).toEqual([]);
    const y = setup(destructive, [], { mode: 'norris', yes: true });
    await y.call('rm -rf x');
    expect(y.ran).toEqual(['rm -rf x']);
  });

  it('MCP tools are asked as "call NAME?" and declined as a tool call', async () => {
    const t = setup({ kind: 'mcp', destructive: false }, ['n']);
    expect((await t.call('x')).content).toBe('The user declined this tool call.');
    expect(t.asked).toEqual(['call run_command? [y/N] ']);
  });

  it('unknown tools and bad arguments go back to the model as errors', async () => {
    const t = setup(plain, []);
    expect((await t.call('x', 'nope')).content).toBe('Error: there is no tool named nope. Available: run_command');
    expect((await t.call(undefined)).content).toBe('Error: missing "x"');
    expect(t.printed.map((p) => p.text)).toEqual(['⏵ nope: no such tool', '⏵ run_command: invalid arguments (missing "x")']);
  });

  it('Norris runs every unasked step in the sandbox: one that may write after a checkpoint, a read-only one with none', async () => {
    const box: Sandbox = { name: 'test-box', network: false, wrap: (shell, command) => ({ file: shell, args: ['-c', command] }) };
    const t = setup(plain, [], { mode: 'norris', sandbox: box });
    await t.call('make build');
    expect(t.sandboxes).toEqual(['test-box']);
    expect(t.unasked).toEqual([true]);
    expect(t.checkpoints).toEqual(['make build']);
    const ro = setup({ ...plain, safe: true }, [], { mode: 'norris', sandbox: box });
    await ro.call('ls');
    expect(ro.sandboxes).toEqual(['test-box']);
    expect(ro.unasked).toEqual([true]);
    expect(ro.checkpoints).toEqual([]);
  });

  it('an unasked step that may write does not run when its checkpoint failed; an approved one does', async () => {
    const box: Sandbox = { name: 'test-box', network: false, wrap: (shell, command) => ({ file: shell, args: ['-c', command] }) };
    const failing = { checkpoint: async () => false };
    const t = setup(plain, [], { mode: 'norris', sandbox: box, ...failing });
    const r = await t.call('make build');
    expect(r.refused).toBe(true);
    expect(r.content).toMatch(/no checkpoint could be taken/);
    expect(t.ran).toEqual([]);
    const asked = setup(plain, ['y'], failing);
    await asked.call('make build');
    expect(asked.ran).toEqual(['make build']);
    expect(asked.unasked).toEqual([false]);
  });

  it('with nobody to answer nothing is asked or printed as a question: the step is refused', async () => {
    const printed: OutputItem[] = [];
    const asked: string[] = [];
    const host: EngineHost = {
      print: (i) => printed.push(i),
      liveStart() {},
      liveText() {},
      liveEnd() {},
      ask: async (q) => (asked.push(q), 'y'),
      canAsk: false,
    };
    const u = setup(plain, [], { mode: 'norris', host });
    expect((await u.call('make build')).refused).toBe(true);
    expect(asked).toEqual([]);
    expect(u.ran).toEqual([]);
  });

  it('a required sandbox that is missing refuses the step and tells the model why', async () => {
    const t = setup(plain, ['y'], { mode: 'norris', sandboxRequired: true });
    const r = await t.call('make build');
    expect(r).toMatchObject({ refused: true });
    expect(r.content).toMatch(/^Not run: safety\.sandbox is "required" and no sandbox is available/);
    expect(t.asked).toEqual([]);
  });
});

describe('a step judged by what it did (the after-the-fact check)', () => {
  const box: Sandbox = { name: 'test-box', network: false, wrap: (shell, command) => ({ file: shell, args: ['-c', command] }) };
  const overwrote: StepVerdict = { changes: [{ path: 'victim/keep', what: 'changed' }], notRestored: [], keep: null };

  /** A watch whose check answers `verdict`; `kept` counts keep() calls. */
  function watching(verdict: Omit<StepVerdict, 'keep'> | null, keepable = true) {
    const seen = { labels: [] as string[], kept: 0, checked: 0 };
    const watch = async (label: string) => {
      seen.labels.push(label);
      const w = {
        unrestorable: () => [],
        check: async () => {
          seen.checked++;
          return verdict && { ...verdict, keep: keepable ? () => void seen.kept++ : null };
        },
      };
      return w as unknown as StepWatch;
    };
    return { seen, watch };
  }

  it('unattended: the change is put back and the step refused, with what it changed', async () => {
    const w = watching(overwrote);
    const t = setup(plain, [], { mode: 'norris', sandbox: box, watch: w.watch });
    t.host.canAsk = false;
    const r = await t.call('python3 -m json.tool data.json victim/keep');
    expect(t.ran).toEqual(['python3 -m json.tool data.json victim/keep']);
    expect(w.seen.labels).toEqual(['python3 -m json.tool data.json victim/keep']);
    expect(t.checkpoints).toEqual([]); // the watch took the snapshot
    expect(r.refused).toBe(true);
    expect(r.content).toMatch(/^Not kept: .*victim\/keep \(changed\).*no one to confirm/);
    expect(r.content).toContain('did python3');
    expect(t.asked).toEqual([]);
    expect(t.printed.map((p) => p.text)).toContain(
      '  put back: a step nobody approved changed files that existed before it: victim/keep (changed)',
    );
    expect(w.seen.kept).toBe(0);
  });

  it('with a person there: keep these changes? y puts them in place again; Enter leaves them put back', async () => {
    const yes = watching(overwrote);
    const t = setup(plain, ['y'], { mode: 'norris', sandbox: box, watch: yes.watch });
    expect(await t.call('cc -o victim/keep')).toEqual({ content: 'did cc -o victim/keep', refused: false, denied: false });
    expect(t.asked).toEqual(['keep these changes? [y/N] ']);
    expect(yes.seen.kept).toBe(1);
    const no = watching({ changes: [{ path: '.npmrc', what: 'created' }], notRestored: [] });
    const n = setup(plain, [''], { mode: 'norris', sandbox: box, watch: no.watch });
    const r = await n.call('npm config set script-shell ./evil.sh --location=project');
    expect(r.denied).toBe(true);
    expect(r.content).toMatch(/^Not kept: .*\.npmrc \(created, configures programs\).*the user chose not to keep them/);
    expect(no.seen.kept).toBe(0);
  });

  it('--yes: a step shown as destructive is not judged; one that looked harmless is put back without asking', async () => {
    const d = watching(overwrote);
    const t = setup(destructive, ['y'], { mode: 'norris', sandbox: box, yes: true, watch: d.watch });
    expect((await t.call('rm -rf x')).content).toBe('did rm -rf x');
    expect(d.seen.labels).toEqual([]);
    expect(t.checkpoints).toEqual(['rm -rf x']);
    const h = watching(overwrote);
    const y = setup(plain, ['y'], { mode: 'norris', sandbox: box, yes: true, watch: h.watch });
    const r = await y.call('git bundle create victim/keep HEAD');
    expect(r.refused).toBe(true);
    expect(r.content).toMatch(/--yes runs destructive steps, not ones that only look harmless/);
    expect(y.asked).toEqual([]);
  });

  it('nothing judged: the result stands; approved and read-only steps are not watched', async () => {
    const w = watching(null);
    const t = setup(plain, [], { mode: 'norris', sandbox: box, watch: w.watch });
    expect((await t.call('make build')).content).toBe('did make build');
    expect(w.seen.checked).toBe(1);
    const a = watching(overwrote);
    const approved = setup(plain, ['y'], { watch: a.watch });
    expect((await approved.call('make build')).content).toBe('did make build');
    const ro = setup({ ...plain, safe: true }, [], { mode: 'norris', sandbox: box, watch: a.watch });
    await ro.call('ls');
    expect(a.seen.labels).toEqual([]);
  });

  it('a watch that could not be taken refuses an unasked step, as a failed checkpoint does', async () => {
    const t = setup(plain, [], { mode: 'norris', sandbox: box, watch: async () => false });
    const r = await t.call('make build');
    expect(r.refused).toBe(true);
    expect(t.ran).toEqual([]);
  });
});
