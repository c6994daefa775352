/** The allowlist of what each tool documents as memory (memory/porting/allowed-files.ts), file by file. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRule } from '../../src/memory/porting/allowed-files';
import { claudeProjectDir } from '../../src/memory/porting/tool-files';

const home = '/nonexistent-home';
const root = '/work/shop';
const rule = fileRule({ home }, [root]);
const mine = claudeProjectDir(home, root);
const other = claudeProjectDir(home, '/work/other');

describe('files an import may read', () => {
  it.each([
    [join(home, '.claude', 'CLAUDE.md'), null],
    [join(home, '.claude', 'my-notes.md'), null],
    [join(home, '.claude', 'rules', 'team', 'shell.md'), null],
    [join(mine, 'memory', 'MEMORY.md'), null],
    [join(home, '.gemini', 'GEMINI.md'), null],
    [join(home, '.codex', 'AGENTS.md'), null],
    [join(home, '.codex', 'AGENTS.override.md'), null],
    [join(home, '.codex', 'memories', 'MEMORY.md'), null],
    [join(home, '.codex', 'memories', 'memory_summary.md'), null],
    [join(root, 'docs', 'style.md'), null],
    [join(root, 'notes.txt'), null],
    [join(home, '.claude', 'history.jsonl'), "Claude Code's prompt history"],
    [join(home, '.claude', '.credentials.json'), "Claude Code's credentials"],
    [join(home, '.claude', 'settings.local.json'), "Claude Code's settings"],
    [join(other, 'memory', 'MEMORY.md'), "another project's Claude Code memory"],
    [join(mine, '0b1c.jsonl'), 'a Claude Code session transcript'],
    [join(mine, 'memory', 'sub', 'x.md'), "not this project's Claude Code auto memory (projects/…/memory/*.md)"],
    [join(home, '.claude', 'commands', 'deploy.md'), expect.stringMatching(/^not a memory file Claude Code documents/)],
    [join(home, '.claude', 'rules', 'x.json'), expect.stringMatching(/^not a memory file Claude Code documents/)],
    [join(home, '.gemini', 'settings.json'), "Gemini CLI's settings"],
    [join(home, '.gemini', 'oauth_creds.json'), "Gemini CLI's credentials"],
    [join(home, '.gemini', 'tmp', 'abc', 'logs.json'), "Gemini CLI's session history"],
    [join(home, '.codex', 'history.jsonl'), "Codex's prompt history"],
    [join(home, '.codex', 'auth.json'), "Codex's credentials"],
    [join(home, '.codex', 'config.toml'), "Codex's settings"],
    [join(home, '.codex', 'sessions', '2026', 'rollout.jsonl'), 'a Codex session transcript'],
    [join(home, '.codex', 'memories', 'raw_memories.md'), expect.stringMatching(/^Codex's working drafts/)],
    [join(home, '.codex', 'notes.md'), expect.stringMatching(/^not a memory file Codex documents/)],
    [join(root, '.git', 'config.md'), 'inside a .git directory'],
    [join(root, 'package.json'), 'not a Markdown or text file (memory files are Markdown)'],
    ['/etc/hostname', 'not a Markdown or text file (memory files are Markdown)'],
  ])('%s', (path, why) => {
    expect(rule.refusal(path)).toEqual(why);
  });

  it('$CODEX_HOME moves Codex’s home; ~/.codex is then an ordinary directory', () => {
    const r = fileRule({ home, codexHome: '/elsewhere/codex' }, [root]);
    expect(r.refusal('/elsewhere/codex/auth.json')).toBe("Codex's credentials");
    expect(r.refusal('/elsewhere/codex/AGENTS.md')).toBeNull();
    expect(r.refusal(join(home, '.codex', 'auth.json'))).toBe('not a Markdown or text file (memory files are Markdown)');
  });
});
