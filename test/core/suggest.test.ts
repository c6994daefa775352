/** The review of a suggested command: the menu's answers, the destructive gate, revise and describe. */
import { describe, expect, it } from 'vitest';
import type { ChatMessage, StreamOptions, StreamResult } from '../../src/broker/types';
import { parseChoice, suggestCommand, suggestEnv, suggestionText, typedYes, type SuggestDeps } from '../../src/core/suggest';
import { recordingHost } from '../helpers/host';

describe('menu answers', () => {
  it('a letter or the word picks; Enter and nobody quit; anything else asks again', () => {
    expect(parseChoice('e')).toBe('execute');
    expect(parseChoice(' Revise ')).toBe('revise');
    expect(parseChoice('d')).toBe('describe');
    expect(parseChoice('c')).toBe('copy');
    expect(parseChoice('q')).toBe('quit');
    expect(parseChoice('')).toBe('quit');
    expect(parseChoice(null)).toBe('quit');
    expect(parseChoice('x')).toBeNull();
    expect(parseChoice('yes')).toBeNull();
  });

  it('only the typed word yes runs a destructive command', () => {
    expect(typedYes('yes')).toBe(true);
    expect(typedYes(' YES ')).toBe(true);
    for (const a of ['y', '', 'no', 'e', null]) expect(typedYes(a)).toBe(false);
  });

  it('the environment names the OS and the shell by name', () => {
    expect(suggestEnv('/x', { SHELL: '/usr/bin/zsh' }, 'darwin')).toEqual({ cwd: '/x', os: 'macOS', shell: 'zsh' });
    expect(suggestEnv('/x', {}, 'linux')).toEqual({ cwd: '/x', os: 'Linux', shell: 'sh' });
  });

  it('the command is shown in a shell fence with its explanation under it', () => {
    expect(suggestionText({ command: 'ls', explanation: 'lists' })).toBe('```sh\nls\n```\nlists');
  });
});

function harness(answers: Array<string | null>, replies: string[]) {
  const copied: string[] = [];
  const { host, printed, asked } = recordingHost(answers, { copy: (t) => void copied.push(t) });
  const requests: ChatMessage[][] = [];
  const shellRuns: string[] = [];
  const deps: SuggestDeps = {
    host,
    cwd: '/work/app',
    changeDir: (d) => d,
    cancellable: (fn) => fn(new AbortController().signal),
    addShellContext: (b) => shellRuns.push(b),
    broker: () => ({
      stream: async (messages: ChatMessage[], _o?: StreamOptions): Promise<StreamResult> => {
        requests.push(messages);
        return {
          content: replies.shift() ?? 'COMMAND: true\nEXPLANATION: nothing',
          toolCalls: [],
          finishReason: 'stop',
          interrupted: false,
        };
      },
    }),
    memoryItems: async () => [{ kind: 'fact', content: 'The project uses pnpm.' }],
    extraPatterns: [],
    env: { SHELL: '/bin/bash' },
  };
  return { deps, printed, asked, requests, copied, shellRuns };
}

describe('suggestCommand', () => {
  it('asks with cwd, OS, shell and [background], shows the command, quits on q', async () => {
    const h = harness(['q'], ['COMMAND: find . -size +100M\nEXPLANATION: files over 100 MB']);
    const r = await suggestCommand(h.deps, 'find files over 100 MB here');
    expect(r).toEqual({ suggestion: { command: 'find . -size +100M', explanation: 'files over 100 MB' }, choice: 'quit' });
    const sys = h.requests[0]![0]!.content as string;
    expect(sys).toContain('/work/app');
    expect(sys).toContain('shell bash');
    expect(sys).toContain('- (fact) The project uses pnpm.');
    expect(h.requests[0]![1]).toEqual({ role: 'user', content: 'find files over 100 MB here' });
    expect(h.printed[0]).toMatchObject({ kind: 'assistant', markdown: true, text: '```sh\nfind . -size +100M\n```\nfiles over 100 MB' });
    expect(h.asked).toEqual(['[e]xecute [r]evise [d]escribe [c]opy [q]uit: ']);
  });

  it('revise sends the previous command and the change, then shows the new one', async () => {
    const h = harness(
      ['r', 'only log files', 'q'],
      ['COMMAND: find . -size +100M\nEXPLANATION: big', 'COMMAND: find . -name "*.log" -size +100M\nEXPLANATION: big logs'],
    );
    const r = await suggestCommand(h.deps, 'big files');
    expect(r.suggestion?.command).toBe('find . -name "*.log" -size +100M');
    const rev = h.requests[1]!;
    expect(rev.at(-2)).toEqual({ role: 'assistant', content: 'COMMAND: find . -size +100M\nEXPLANATION: big' });
    expect(rev.at(-1)!.content).toContain('find . -size +100M');
    expect(rev.at(-1)!.content).toContain('only log files');
  });

  it('a destructive command is shown in red and not run without the typed yes', async () => {
    for (const answer of ['y', '', 'no', null]) {
      const h = harness(['e', answer], ['COMMAND: rm -rf build\nEXPLANATION: deletes build']);
      const r = await suggestCommand(h.deps, 'clean the build');
      expect(r.choice).toBe('refused');
      expect(h.printed.some((p) => p.kind === 'error' && p.text.startsWith('destructive: ') && p.text.includes('rm -rf build'))).toBe(true);
      expect(h.asked[1]).toBe('type yes to run it: ');
      expect(h.shellRuns).toEqual([]);
    }
  });

  it('describe asks the model to explain the command, then the menu comes back', async () => {
    const h = harness(['d', 'q'], ['COMMAND: du -sh *\nEXPLANATION: sizes', '- `du` — disk usage']);
    await suggestCommand(h.deps, 'sizes');
    expect(h.requests[1]!.at(-1)).toEqual({ role: 'user', content: 'du -sh *' });
    expect(h.printed.some((p) => p.kind === 'assistant' && p.text === '- `du` — disk usage')).toBe(true);
    expect(h.asked).toHaveLength(2);
  });

  it('copy puts the command on the clipboard and prints it', async () => {
    const h = harness(['c'], ['COMMAND: git status\nEXPLANATION: state']);
    expect((await suggestCommand(h.deps, 'status')).choice).toBe('copy');
    expect(h.copied).toEqual(['git status']);
    expect(h.printed.at(-1)).toEqual({ kind: 'info', text: 'copied to the clipboard: git status' });
  });

  it('an unknown answer asks again', async () => {
    const h = harness(['x', 'q'], []);
    await suggestCommand(h.deps, 'anything');
    expect(h.asked).toHaveLength(2);
    expect(h.printed.some((p) => p.text === 'answer e, r, d, c or q')).toBe(true);
  });

  it('an answer without a command is an error', async () => {
    const h = harness([], ['I will not do that.']);
    await expect(suggestCommand(h.deps, 'x')).rejects.toThrow(/did not answer with a command/);
  });
});
