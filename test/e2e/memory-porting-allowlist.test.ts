/**
 * `aish memory import --from TOOL` reads only what each tool documents as memory: never a tool's
 * history, credentials, settings, session transcripts or another project's memory, whether a
 * project's file reaches them by `@`-import (`~`, absolute, `..`) or by being a link. Each file
 * left out is named once with its reason, on stderr and in `--dry-run`.
 */
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDir } from '../../src/memory/porting/tool-files';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

interface Listed {
  content: string;
  source?: string;
}

function setup() {
  const base = tmpDir();
  cpSync(join(ROOT, 'test', 'fixtures', 'porting'), base, { recursive: true });
  const home = join(base, 'home');
  const project = join(base, 'project');
  const data = join(base, 'data');
  const run = (...args: string[]) => runAish(['--data-dir', data, 'memory', ...args], { home, cwd: project });
  const list = async () => JSON.parse((await run('list', '--json')).stdout || '[]') as Listed[];
  // What a user's tool homes hold besides memory, each with a marker that must never be imported.
  const claude = join(home, '.claude');
  writeFileSync(join(claude, 'history.jsonl'), '{"display":"HISTORY-MARKER deploy with token x","project":"/p"}\n');
  writeFileSync(join(claude, '.credentials.json'), '{"claudeAiOauth":{"accessToken":"CRED-MARKER"}}\n');
  writeFileSync(join(claude, 'settings.json'), '{"note":"SETTINGS-MARKER"}\n');
  const other = join(claudeProjectDir(home, join(base, 'other-project')), 'memory');
  mkdirSync(other, { recursive: true });
  writeFileSync(join(other, 'MEMORY.md'), '- OTHER-PROJECT-MARKER: the client is Acme.\n');
  const mine = join(claudeProjectDir(home, project), 'memory');
  mkdirSync(mine, { recursive: true });
  writeFileSync(join(mine, 'MEMORY.md'), '- This project ships on Fridays.\n');
  writeFileSync(join(mine, '..', 'session-1.jsonl'), '{"type":"user","message":"TRANSCRIPT-MARKER"}\n');
  writeFileSync(join(home, '.codex', 'history.jsonl'), '{"text":"CODEX-HISTORY-MARKER"}\n');
  writeFileSync(join(home, '.codex', 'auth.json'), '{"OPENAI_API_KEY":"CODEX-AUTH-MARKER"}\n');
  return { base, home, project, data, run, list, other, mine };
}

const MARKERS = /HISTORY-MARKER|CRED-MARKER|SETTINGS-MARKER|OTHER-PROJECT-MARKER|TRANSCRIPT-MARKER|CODEX-HISTORY-MARKER|CODEX-AUTH-MARKER/;

describe('import reads only the memory files each tool documents', () => {
  it("claude: a CLAUDE.md's @-imports of history, credentials, settings, a transcript and another project's memory are each named, none read", async () => {
    const t = setup();
    writeFileSync(
      join(t.project, 'CLAUDE.md'),
      [
        '# Shop',
        '',
        '- History: @~/.claude/history.jsonl',
        '- Keys: @~/.claude/.credentials.json and settings @~/.claude/settings.json',
        `- Other: @${join(t.other, 'MEMORY.md')}`,
        `- Transcript: @${join(t.mine, '..', 'session-1.jsonl')}`,
        '- Up and over: @../home/.claude/history.jsonl',
        '- Still read: @README.md',
        '',
      ].join('\n'),
    );
    const dry = await t.run('import', '--from', 'claude', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toMatch(MARKERS);
    expect(dry.stdout).toContain('This project ships on Fridays.');
    expect(dry.stdout).toContain('Postgres'); // README.md, inside the project, still followed
    const expected = [
      "@~/.claude/history.jsonl not read: Claude Code's prompt history",
      "@~/.claude/.credentials.json not read: Claude Code's credentials",
      "@~/.claude/settings.json not read: Claude Code's settings",
      `@${join(t.other, 'MEMORY.md')} not read: another project's Claude Code memory`,
      `not read: a Claude Code session transcript`,
    ];
    for (const line of expected) {
      expect(dry.stderr).toContain(line);
      expect(dry.stdout).toContain(line); // --dry-run lists what it leaves out too
    }
    // ../home/.claude/history.jsonl leaves the project: named, not read.
    expect(dry.stderr).toMatch(/@\.\.\/home\/\.claude\/history\.jsonl not read: /);
    // One line each: every left-out file named once.
    expect(dry.stderr.match(/\.credentials\.json not read/g)).toHaveLength(1);

    const r = await t.run('import', '--from', 'claude');
    expect(r.code).toBe(0);
    const items = await t.list();
    expect(items.map((i) => i.content).join('\n')).not.toMatch(MARKERS);
    expect(items.some((i) => i.content === 'This project ships on Fridays.')).toBe(true);
  });

  it('a project file that is a link into a tool home (AGENTS.md → ~/.codex/history.jsonl or auth.json) is not read; nor is such a file named as PATH', async () => {
    const t = setup();
    rmSync(join(t.project, 'AGENTS.md'));
    symlinkSync(join(t.home, '.codex', 'history.jsonl'), join(t.project, 'AGENTS.md'));
    rmSync(join(t.project, 'pkg', 'web', 'AGENTS.md'));
    symlinkSync(join(t.home, '.codex', 'auth.json'), join(t.project, 'pkg', 'web', 'AGENTS.md'));
    for (const tool of ['agents', 'codex']) {
      const r = await runAish(['--data-dir', t.data, 'memory', 'import', '--from', tool], {
        home: t.home,
        cwd: join(t.project, 'pkg', 'web'),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/AGENTS\.md not read: Codex's prompt history \(a link to ~\/\.codex\/history\.jsonl\)/);
      expect(r.stderr).toMatch(/web\/AGENTS\.md not read: Codex's credentials \(a link to ~\/\.codex\/auth\.json\)/);
    }
    const items = await t.list();
    expect(items.map((i) => i.content).join('\n')).not.toMatch(MARKERS);
    // A PATH naming a tool's history is refused the same way.
    const named = await t.run('import', '--from', 'claude', join(t.home, '.claude', 'history.jsonl'));
    expect(named.stderr).toContain("history.jsonl not read: Claude Code's prompt history");
    expect(named.stdout).toMatch(/^no claude memory files found/);
    const otherDir = await t.run('import', '--from', 'claude', t.other);
    expect(otherDir.stderr).toContain("not read: another project's Claude Code memory");
    expect((await t.list()).map((i) => i.content).join('\n')).not.toMatch(MARKERS);
  });

  it("the user's own CLAUDE.md is held to the same list: its @~/.claude/history.jsonl is named, not read", async () => {
    const t = setup();
    writeFileSync(join(t.home, '.claude', 'CLAUDE.md'), '- Mine: @~/.claude/history.jsonl and @~/.codex/auth.json\n- Answer tersely.\n');
    const r = await t.run('import', '--from', 'claude', '--dry-run');
    expect(r.stdout).toContain('Answer tersely.');
    expect(r.stdout).not.toMatch(MARKERS);
    expect(r.stderr).toContain("@~/.claude/history.jsonl not read: Claude Code's prompt history");
    expect(r.stderr).toContain("@~/.codex/auth.json not read: Codex's credentials");
  });
});
