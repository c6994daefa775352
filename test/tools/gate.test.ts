import { describe, expect, it } from 'vitest';
import { decide, parseAnswer, type GatePolicy, type GateSubject } from '../../src/tools/gate';

type Case = Partial<GateSubject> & Partial<GatePolicy>;
const d = (c: Case) => {
  const { mode = 'chat', confirmCommands = true, yes = false, alwaysAllowed = false, kind = 'command', ...rest } = c;
  const subject: GateSubject = { kind, destructive: false, ...(kind === 'command' && { alwaysKey: 'cmd' }), ...rest };
  return decide(subject, { mode, confirmCommands, yes, alwaysAllowed });
};

describe('safety gate', () => {
  it('chat mode asks for every run_command, offering "always" only for non-destructive ones', () => {
    expect(d({})).toEqual({ action: 'ask', offerAlways: true });
    expect(d({ destructive: true })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ alwaysAllowed: true })).toEqual({ action: 'run' });
    expect(d({ destructive: true, alwaysAllowed: true })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ confirmCommands: false })).toEqual({ action: 'run' });
    expect(d({ confirmCommands: false, destructive: true })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ yes: true, destructive: true })).toEqual({ action: 'ask', offerAlways: false }); // --yes is for Norris only
  });

  it('Norris runs non-destructive steps unasked; destructive ones ask, or run with --yes', () => {
    expect(d({ mode: 'norris' })).toEqual({ action: 'run' });
    expect(d({ mode: 'norris', destructive: true })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ mode: 'norris', destructive: true, yes: true })).toEqual({ action: 'run' });
  });

  it('MCP tools: read-only run; others ask in chat; in Norris only destructive ones ask', () => {
    expect(d({ kind: 'mcp', readOnly: true })).toEqual({ action: 'run' });
    expect(d({ kind: 'mcp', readOnly: true, mode: 'norris', destructive: true })).toEqual({ action: 'run' });
    expect(d({ kind: 'mcp' })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ kind: 'mcp', mode: 'norris' })).toEqual({ action: 'run' });
    expect(d({ kind: 'mcp', mode: 'norris', destructive: true })).toEqual({ action: 'ask', offerAlways: false });
    expect(d({ kind: 'mcp', mode: 'norris', destructive: true, yes: true })).toEqual({ action: 'run' });
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
