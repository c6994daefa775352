/** The answer format of `aish -e` / `:do`: the strict lines, and what models send instead. */
import { describe, expect, it } from 'vitest';
import { joinLines, parseSuggestion, revisionMessages, suggestMessages, suggestSystemPrompt } from '../../src/context/suggest';

describe('parseSuggestion', () => {
  it('reads the strict format', () => {
    expect(parseSuggestion('COMMAND: find . -size +100M\nEXPLANATION: lists files over 100 MB here')).toEqual({
      command: 'find . -size +100M',
      explanation: 'lists files over 100 MB here',
    });
  });

  it('takes bold labels, backticks, a prompt sign and lower case', () => {
    expect(parseSuggestion('**Command:** `$ du -sh *`\n**Explanation:** sizes of each entry')).toEqual({
      command: 'du -sh *',
      explanation: 'sizes of each entry',
    });
    expect(parseSuggestion('command: ls -la\nexplanation: all files')).toEqual({ command: 'ls -la', explanation: 'all files' });
    expect(parseSuggestion('**COMMAND: ls *.md**')).toEqual({ command: 'ls *.md', explanation: '' });
  });

  it('reads a fenced code block with prose around it', () => {
    const a = 'Here is the command:\n\n```bash\nfind . -type f -size +100M\n```\n\nThis finds large files.';
    expect(parseSuggestion(a)).toEqual({ command: 'find . -type f -size +100M', explanation: 'Here is the command:' });
    expect(parseSuggestion('```\ngit status\n```')).toEqual({ command: 'git status', explanation: '' });
  });

  it('takes COMMAND: followed by a fence', () => {
    expect(parseSuggestion('COMMAND:\n```sh\nls\n```\nEXPLANATION: lists')).toEqual({ command: 'ls', explanation: 'lists' });
  });

  it('a bare one-line answer is the command', () => {
    expect(parseSuggestion('  `ls -1 | wc -l`  ')).toEqual({ command: 'ls -1 | wc -l', explanation: '' });
  });

  it("skips a reasoning model's thinking", () => {
    expect(parseSuggestion('<think>COMMAND: rm -rf / maybe?</think>\nCOMMAND: echo hi\nEXPLANATION: says hi')).toEqual({
      command: 'echo hi',
      explanation: 'says hi',
    });
  });

  it('an answer with no command is an error, not a guess', () => {
    expect(parseSuggestion('')).toHaveProperty('error');
    expect(parseSuggestion('I cannot help with that.\nIt would be unsafe.\nSorry.')).toHaveProperty('error');
    expect(parseSuggestion('I cannot help with that.')).toHaveProperty('error');
    expect(parseSuggestion('EXPLANATION: nothing')).toHaveProperty('error');
  });

  it('a multi-line block becomes one line', () => {
    expect(parseSuggestion('```sh\n# comment\nfor f in *.log; do\n  gzip "$f"\ndone\n```')).toMatchObject({
      command: 'for f in *.log; do gzip "$f"; done',
    });
    expect(joinLines(['tar czf a.tgz \\', '  src/'])).toBe('tar czf a.tgz src/');
    expect(joinLines(['cd build', 'make'])).toBe('cd build; make');
    expect(joinLines(['cat x |', 'sort'])).toBe('cat x | sort');
  });
});

describe('suggestion messages', () => {
  it('the system prompt names the cwd, OS and shell, the format, and [background]', () => {
    const p = suggestSystemPrompt({ cwd: '/home/u/app', os: 'Linux', shell: 'zsh' }, [{ kind: 'pref', content: 'Use ripgrep over grep.' }]);
    expect(p).toContain('current directory /home/u/app');
    expect(p).toContain('OS Linux');
    expect(p).toContain('shell zsh');
    expect(p).toContain('COMMAND: <the command, on one line>');
    expect(p).toContain('[background]');
    expect(p).toContain('- (pref) Use ripgrep over grep.');
    expect(suggestSystemPrompt({ cwd: '/', os: 'Linux', shell: 'bash' }, [])).not.toContain('[background]');
  });

  it('a revision carries the previous command and what to change', () => {
    const first = suggestMessages('SYS', 'find big files');
    const r = revisionMessages(first, { command: 'find . -size +100M', explanation: 'big files' }, 'only .log files');
    expect(r.slice(0, 2)).toEqual(first);
    expect(r[2]).toEqual({ role: 'assistant', content: 'COMMAND: find . -size +100M\nEXPLANATION: big files' });
    expect(r[3]!.role).toBe('user');
    expect(r[3]!.content).toContain('find . -size +100M');
    expect(r[3]!.content).toContain('only .log files');
  });
});
