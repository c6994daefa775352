// Rules at the gate, through the real run_command tool and tool-call path: deny refuses in every
// mode (--yes too) and names the rule to the model; ask asks even with --yes; allow runs unasked
// (sandboxed when a sandbox is there); "always" is offered for one simple command only and records
// an exact rule for it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig } from '../../src/config/types';
import { executeToolCall, type ToolCallContext } from '../../src/core/tool-call';
import { decide, type GatePolicy } from '../../src/tools/gate';
import { Toolbox } from '../../src/tools/toolbox';
import { recordingHost } from '../helpers/host';
import { tmpDir } from '../helpers/tmp';

function session(rules: string[], answers: Array<string | null>, over: Partial<ToolCallContext> = {}) {
  const config: AishConfig = structuredClone(DEFAULT_CONFIG);
  config.safety.rules = rules;
  const dir = tmpDir();
  const toolbox = new Toolbox(config, { logDir: dir, baseDir: dir, dataDir: dir }, { warn: () => {}, changed: () => {} });
  const { host, printed, asked } = recordingHost(answers);
  const run = (command: string) =>
    executeToolCall(
      { id: 'c', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command }) } },
      {
        host,
        toolbox,
        cwd: dir,
        mode: 'chat',
        confirmCommands: true,
        yes: false,
        sandbox: null,
        sandboxRequired: false,
        signal: new AbortController().signal,
        ...over,
      },
    );
  return { run, toolbox, printed, asked };
}

describe('rules at the gate', () => {
  it('deny is refused under --norris --yes and the model is told which rule', async () => {
    const s = session(['deny echo'], [], { mode: 'norris', yes: true });
    const r = await s.run('nice -n 1 echo hi');
    expect(r).toMatchObject({ refused: true });
    expect(r.content).toMatch(/^Not run: denied by the rule "deny echo", one of the user's command rules\. Do not run it another way/);
    expect(s.printed.map((p) => p.text)).toContain('refused: nice -n 1 echo hi (denied by the rule "deny echo")');
    expect(s.asked).toEqual([]);
  });

  it('ask asks even with --yes, without "always"; nobody there is a refusal naming the rule', async () => {
    const s = session(['ask echo'], ['y'], { mode: 'norris', yes: true });
    expect((await s.run('echo hi')).content).toMatch(/^exit code 0\nhi/);
    expect(s.asked).toEqual(['run? [y/N] ']);
    const t = session(['ask echo'], [], { mode: 'norris', yes: true });
    expect((await t.run('echo hi')).content).toMatch(/^Not run: the user's command rules ask before this \(ask echo\)/);
  });

  it('allow runs without asking in chat, where anything else asks', async () => {
    const s = session(['allow echo hi'], []);
    expect((await s.run('echo hi there')).content).toMatch(/^exit code 0\nhi there/);
    expect(s.asked).toEqual([]);
    expect((await s.run('echo ho')).refused).toBe(true);
  });

  it('the decision for each rule and policy', () => {
    const subject = { kind: 'command', destructive: true } as const;
    const p: GatePolicy = { mode: 'norris', confirmCommands: true, yes: true, alwaysAllowed: true, sandbox: true, sandboxRequired: false };
    expect(decide({ ...subject, rule: { decision: 'deny', rule: 'deny x' } }, p)).toEqual({
      action: 'refuse',
      reason: 'denied by the rule "deny x"',
    });
    expect(decide({ ...subject, rule: { decision: 'ask', rule: 'ask x' } }, p)).toEqual({
      action: 'ask',
      offerAlways: false,
      sandboxed: true,
    });
    expect(decide({ ...subject, rule: { decision: 'allow', rule: 'allow x' } }, p)).toEqual({ action: 'run', sandboxed: true });
    const bare = { ...p, sandbox: false };
    expect(decide({ ...subject, rule: { decision: 'allow', rule: 'allow x' } }, bare)).toEqual({ action: 'run', sandboxed: false });
    expect(decide({ ...subject, rule: { decision: 'allow', rule: 'allow x' } }, { ...bare, sandboxRequired: true })).toMatchObject({
      action: 'ask',
    });
  });
});

describe('"always"', () => {
  it('records an exact rule for one simple command, this session', async () => {
    const s = session([], ['always']);
    expect((await s.run('echo one two')).content).toMatch(/^exit code 0/);
    expect(s.asked).toEqual(['run? [y/N/always] ']);
    expect(s.toolbox.rules.active().rules.map((r) => [r.text, r.source])).toEqual([
      ['allow exact echo one two', 'this session ("always")'],
    ]);
    expect((await s.run("echo 'one' two")).content).toMatch(/^exit code 0/);
    expect(s.asked).toHaveLength(1);
    // Not wider than itself: more words, a compound line with a command that is not read-only, or
    // output to a file ask again (with a read-only partner, `echo one two && ls` runs).
    expect((await s.run('echo one two three')).refused).toBe(true);
    expect((await s.run('echo one two && touch x')).refused).toBe(true);
    expect((await s.run('echo one two > out.txt')).refused).toBe(true);
    expect(s.asked).toHaveLength(4);
  });

  it('is not offered for a compound line, and typing it there is a no', async () => {
    const s = session([], ['always', 'always']);
    const r = await s.run('echo a && echo b');
    expect(s.asked).toEqual(['run? [y/N] ']);
    expect(r.denied).toBe(true);
    expect(s.toolbox.rules.active().rules).toEqual([]);
    await s.run('echo a | cat');
    expect(s.asked[1]).toBe('run? [y/N] ');
  });
});
