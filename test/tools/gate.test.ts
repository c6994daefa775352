import { describe, expect, it } from 'vitest';
import { decide, parseAnswer, type GatePolicy, type GateSubject } from '../../src/tools/gate';

type Case = Partial<GateSubject> & Partial<GatePolicy>;
const d = (c: Case) => {
  const {
    mode = 'chat',
    confirmCommands = true,
    yes = false,
    alwaysAllowed = false,
    sandbox = false,
    sandboxRequired = false,
    kind = 'command',
    ...rest
  } = c;
  const subject: GateSubject = { kind, destructive: false, ...(kind === 'command' && { alwaysKey: 'cmd' }), ...rest };
  return decide(subject, { mode, confirmCommands, yes, alwaysAllowed, sandbox, sandboxRequired });
};
const ask = (offerAlways: boolean, sandboxed = false) => ({ action: 'ask', offerAlways, sandboxed });
const run = (sandboxed: boolean) => ({ action: 'run', sandboxed });
const approved = { action: 'run', sandboxed: false, approved: true };

describe('safety gate', () => {
  it('chat mode asks for every run_command, offering "always" only for non-destructive ones', () => {
    expect(d({})).toEqual(ask(true));
    expect(d({ safe: true })).toEqual(ask(true));
    expect(d({ destructive: true })).toEqual(ask(false));
    expect(d({ alwaysAllowed: true })).toEqual(approved);
    expect(d({ destructive: true, alwaysAllowed: true })).toEqual(ask(false));
    expect(d({ yes: true, destructive: true })).toEqual(ask(false)); // --yes is for Norris only
  });

  it('auto-approval (confirmCommands: false) runs only read-only commands outside a sandbox', () => {
    expect(d({ confirmCommands: false, safe: true })).toEqual(run(false));
    expect(d({ confirmCommands: false })).toEqual(ask(true)); // no sandbox: asks
    expect(d({ confirmCommands: false, sandbox: true })).toEqual(run(true));
    expect(d({ confirmCommands: false, destructive: true, sandbox: true })).toEqual(ask(false));
  });

  it('Norris: read-only runs; the rest runs sandboxed, or asks without a sandbox; destructive always asks unless --yes', () => {
    expect(d({ mode: 'norris', safe: true })).toEqual(run(false));
    expect(d({ mode: 'norris', sandbox: true })).toEqual(run(true));
    expect(d({ mode: 'norris' })).toEqual(ask(true));
    expect(d({ mode: 'norris', yes: true })).toEqual(run(false)); // unsandboxed, with --yes only
    expect(d({ mode: 'norris', destructive: true, sandbox: true })).toEqual(ask(false, true));
    expect(d({ mode: 'norris', destructive: true })).toEqual(ask(false));
    expect(d({ mode: 'norris', destructive: true, yes: true, sandbox: true })).toEqual(run(true));
    expect(d({ mode: 'norris', destructive: true, yes: true })).toEqual(run(false));
  });

  it('--yes never runs a step that reads credentials or the environment without a sandbox to hide them', () => {
    const secrets = { mode: 'norris' as const, destructive: true, secrets: true, yes: true };
    expect(d(secrets)).toMatchObject({ action: 'refuse', reason: expect.stringMatching(/credentials or the environment/) });
    expect(d({ ...secrets, sandbox: true })).toEqual(run(true)); // the sandbox hides the stores and the variables
    expect(d({ ...secrets, yes: false })).toEqual(ask(false)); // a person may still say yes
  });

  it('every unasked step runs in the sandbox when there is one, read-only ones included; approved ones are marked', () => {
    expect(d({ mode: 'norris', safe: true, sandbox: true })).toEqual(run(true));
    expect(d({ confirmCommands: false, safe: true, sandbox: true })).toEqual(run(true));
    expect(d({ mode: 'norris', safe: true, sandbox: true, alwaysAllowed: true })).toEqual(approved);
    expect(d({ mode: 'norris', sandbox: true, alwaysAllowed: true })).toEqual(approved);
  });

  it('a step that would start outside aish\'s directory never runs unasked: it asks, without "always"', () => {
    expect(d({ mode: 'norris', outside: true, sandbox: true })).toEqual(ask(false, true));
    expect(d({ mode: 'norris', outside: true, safe: true, sandbox: true })).toEqual(ask(false, true));
    expect(d({ mode: 'norris', outside: true })).toEqual(ask(false));
    expect(d({ confirmCommands: false, outside: true, sandbox: true })).toEqual(ask(false));
    expect(d({ outside: true, alwaysAllowed: true })).toEqual(ask(false));
    expect(d({ mode: 'norris', outside: true, yes: true, sandbox: true })).toEqual(run(true)); // --yes: in the sandbox
  });

  it('a required sandbox that is missing refuses whatever would run on its own, even with --yes', () => {
    expect(d({ mode: 'norris', sandboxRequired: true })).toMatchObject({ action: 'refuse' });
    expect(d({ mode: 'norris', sandboxRequired: true, destructive: true, yes: true })).toMatchObject({ action: 'refuse' });
    expect(d({ mode: 'norris', sandboxRequired: true, safe: true })).toEqual(run(false));
    expect(d({ sandboxRequired: true })).toEqual(ask(true)); // a person approves it in chat
  });

  it('MCP tools: read-only run; others ask in chat; in Norris only destructive ones ask', () => {
    expect(d({ kind: 'mcp', readOnly: true })).toEqual(run(false));
    expect(d({ kind: 'mcp', readOnly: true, mode: 'norris', destructive: true })).toEqual(run(false));
    expect(d({ kind: 'mcp' })).toEqual(ask(false));
    expect(d({ kind: 'mcp', mode: 'norris' })).toEqual(run(false));
    expect(d({ kind: 'mcp', mode: 'norris', destructive: true })).toEqual(ask(false));
    expect(d({ kind: 'mcp', mode: 'norris', destructive: true, yes: true })).toEqual(run(false));
    // A rule that command text in its arguments meets: deny refuses in every mode, ask asks.
    const deny = { decision: 'deny', rule: 'deny rm' } as const;
    expect(d({ kind: 'mcp', readOnly: true, rule: deny })).toMatchObject({ action: 'refuse' });
    expect(d({ kind: 'mcp', mode: 'norris', yes: true, rule: deny })).toMatchObject({ action: 'refuse' });
    expect(d({ kind: 'mcp', mode: 'norris', yes: true, rule: { decision: 'ask', rule: 'ask rm' } })).toEqual(ask(false));
  });

  it('only an explicit yes runs: Enter, other words and nobody-there mean no', () => {
    expect(parseAnswer('y', false)).toBe('yes');
    expect(parseAnswer(' YES ', false)).toBe('yes');
    expect(parseAnswer('', true)).toBe('no');
    expect(parseAnswer(null, true)).toBe('no');
    expect(parseAnswer('sure', true)).toBe('no');
    expect(parseAnswer('always', true)).toBe('always');
    expect(parseAnswer('a', true)).toBe('always');
    expect(parseAnswer('always', false)).toBe('no');
  });
});

describe('safety gate: the user’s rules', () => {
  const rule = (decision: 'allow' | 'ask' | 'deny') => ({ rule: { decision, rule: `${decision} x` } });

  it('deny refuses in every mode, --yes included; ask asks without "always"', () => {
    for (const mode of ['chat', 'norris'] as const)
      for (const yes of [false, true]) {
        expect(d({ mode, yes, sandbox: true, ...rule('deny') }).action).toBe('refuse');
        expect(d({ mode, yes, safe: true, ...rule('ask') })).toMatchObject({ action: 'ask', offerAlways: false });
      }
  });

  it('allow runs unasked in the sandbox (never as an approval), in chat too', () => {
    expect(d({ sandbox: true, ...rule('allow') })).toEqual(run(true));
    expect(d({ sandbox: true, destructive: true, ...rule('allow') })).toEqual(run(true));
    expect(d({ mode: 'norris', sandbox: true, ...rule('allow') })).toEqual(run(true));
  });

  it('without a sandbox, allow carries only what the safety checks do not flag; required asks', () => {
    expect(d({ ...rule('allow') })).toEqual(run(false));
    expect(d({ destructive: true, ...rule('allow') })).toEqual(ask(false));
    expect(d({ mode: 'norris', destructive: true, ...rule('allow') }).action).toBe('ask');
    expect(d({ sandboxRequired: true, ...rule('allow') })).toEqual(ask(false));
  });
});
