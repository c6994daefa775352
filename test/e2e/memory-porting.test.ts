/** `aish memory import --from TOOL` and `export --format agents-md` through the real CLI, on fixture trees shaped like each tool's files. */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeProjectDir } from '../../src/memory/porting/tool-files';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

interface Listed {
  kind: string;
  content: string;
  source?: string;
  scope?: string;
  private?: boolean;
  keys?: string[];
}

function setup() {
  const base = tmpDir();
  cpSync(join(ROOT, 'test', 'fixtures', 'porting'), base, { recursive: true });
  const home = join(base, 'home');
  const project = join(base, 'project');
  const data = join(base, 'data');
  const run = (...args: string[]) => runAish(['--data-dir', data, 'memory', ...args], { home, cwd: project });
  const list = async () => JSON.parse((await run('list', '--json')).stdout) as Listed[];
  return { base, home, project, data, run, list };
}

describe('aish memory import --from (real CLI)', () => {
  it.each([
    ['claude', 'Answer tersely; no summaries at the end.', 'claude:~/.claude/CLAUDE.md'],
    ['gemini', 'My preferred editor is Helix.', 'gemini:~/.gemini/GEMINI.md'],
    ['codex', 'Prefer `pnpm` when installing dependencies.', 'codex:~/.codex/AGENTS.md'],
    ['agents', 'Install deps: `pnpm install`', undefined],
  ])('%s: the project and user files; a second import adds nothing', async (tool, sample, source) => {
    const t = setup();
    if (tool === 'claude') {
      const auto = join(claudeProjectDir(t.home, t.project), 'memory');
      mkdirSync(auto, { recursive: true });
      writeFileSync(join(auto, 'MEMORY.md'), '- The flaky test is checkout.spec.ts; rerun it once.\n');
    }
    const first = await t.run('import', '--from', tool);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^imported [1-9]\d* items? from \d+ files? \(/);
    const items = await t.list();
    const hit = items.find((i) => i.content === sample);
    expect(hit).toBeDefined();
    if (source) expect(hit).toMatchObject({ source });
    // A user-level file is global; a project file gets the project's identity.
    const projectItems = items.filter((i) => i.scope === 'id:porting-fixture');
    expect(projectItems.length).toBeGreaterThan(0);
    expect(projectItems.every((i) => !i.source?.includes(':~/.claude/CLAUDE.md'))).toBe(true);
    if (tool === 'claude') expect(items.find((i) => i.content.includes('checkout.spec.ts'))?.scope).toBe('id:porting-fixture');
    // Codex's own memories folder: MEMORY.md's blocks carry their keywords as keys.
    if (tool === 'codex')
      expect(items.find((i) => i.content.startsWith('Release notes come from'))).toMatchObject({
        kind: 'fact',
        source: 'codex:~/.codex/memories/MEMORY.md',
        keys: ['release notes', 'changelog', 'git log'],
      });
    const second = await t.run('import', '--from', tool);
    expect(second.stdout).toMatch(/^imported 0 items from .*; skipped [1-9]\d* duplicates?\n$/);
    expect((await t.list()).length).toBe(items.length);
  });

  it('secrets are redacted before they are stored; --dry-run lists what would be added and writes nothing', async () => {
    const t = setup();
    const dry = await t.run('import', '--from', 'gemini', '--dry-run');
    expect(dry.stdout).toContain('+ fact [global] My preferred editor is Helix.  (gemini:~/.gemini/GEMINI.md)');
    expect(dry.stdout).toContain('+ pref [id:porting-fixture] Orders are immutable once paid.');
    expect(dry.stdout).toMatch(/nothing written \(--dry-run\)\n$/);
    expect(dry.stdout).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(existsSync(join(t.data, 'memory.jsonl')) && readFileSync(join(t.data, 'memory.jsonl'), 'utf8')).toBeFalsy();
    await t.run('import', '--from', 'gemini');
    const stored = readFileSync(join(t.data, 'memory.jsonl'), 'utf8');
    expect(stored).toContain('The staging token is');
    expect(stored).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });

  it('PATH names one file or a directory; an unknown tool is one line', async () => {
    const t = setup();
    const one = await t.run('import', '--from', 'claude', join(t.project, 'CLAUDE.local.md'));
    expect(one.stdout).toMatch(/^imported 1 item from 1 file /);
    expect((await t.list())[0]).toMatchObject({ content: 'My sandbox is at http://localhost:3001', scope: 'id:porting-fixture' });
    const dir = await t.run('import', '--from', 'agents', join(t.project, 'pkg', 'web'));
    expect(dir.stdout).toMatch(/^imported 1 item from 1 file /);
    const bad = await t.run('import', '--from', 'cursor');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toBe('aish: unknown tool "cursor" — use claude, gemini, codex, agents, antigravity\n');
    const missing = await t.run('import', '--from', 'gemini', join(t.project, 'nope.md'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^aish: .*nope\.md does not exist — name a gemini memory file or the directory holding it\n$/);
    const none = await t.run('import');
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'aish: name the file to import, or a tool: aish memory import --from claude|gemini|codex|agents|antigravity\n',
    );
    // Nothing to read is said, not an error.
    const empty = await runAish(['--data-dir', t.data, 'memory', 'import', '--from', 'agents'], { home: t.home, cwd: t.home });
    expect(empty.stdout).toBe(
      'no agents memory files found for this directory or in your home — name one: aish memory import --from agents PATH\n',
    );
  });
});

describe('aish memory export --format agents-md (real CLI)', () => {
  it('writes the project items as a marked section, replaces only that section again, and round-trips through import --from agents', async () => {
    const t = setup();
    await t.run('import', '--from', 'claude');
    await t.run('add', '--project', 'fact', 'the release branch is cut on Thursdays');
    await t.run('add', 'pref', 'a global preference stays out of AGENTS.md');
    const agents = join(t.project, 'AGENTS.md');
    const before = readFileSync(agents, 'utf8');
    const r = await t.run('export', '--format', 'agents-md', agents);
    expect(r.stdout).toMatch(/^exported \d+ project items to .*AGENTS\.md \(its aish memory section\)\n$/);
    const once = readFileSync(agents, 'utf8');
    expect(once.startsWith(before)).toBe(true);
    expect(once).toContain('<!-- aish memory -->\n## Project memory (from aish)');
    expect(once).toContain('- the release branch is cut on Thursdays');
    expect(once).not.toContain('global preference');
    // CLAUDE.local.md is the user's own: its items are private and stay out of AGENTS.md.
    expect(once).not.toContain('My sandbox');

    // Edits outside the section survive; the section is rewritten in place, not appended twice.
    writeFileSync(agents, once.replace('# AGENTS.md', '# AGENTS.md\n\nHand-written line.'));
    await t.run('add', '--project', 'context', 'we are migrating to Postgres 17');
    await t.run('export', '--format', 'agents-md', agents);
    const twice = readFileSync(agents, 'utf8');
    expect(twice).toContain('Hand-written line.');
    expect(twice.split('<!-- aish memory -->').length).toBe(2);
    expect(twice).toContain('### Context\n\n- we are migrating to Postgres 17');

    const projectItems = (await t.list()).filter((i) => i.scope === 'id:porting-fixture' && !i.private);
    expect(projectItems.length).toBeGreaterThan(5);
    const fresh = join(t.base, 'fresh');
    await runAish(['--data-dir', fresh, 'memory', 'import', '--from', 'agents', agents], { home: t.home, cwd: t.project });
    const back = JSON.parse(
      (await runAish(['--data-dir', fresh, 'memory', 'list', '--json'], { home: t.home, cwd: t.project })).stdout,
    ) as Listed[];
    for (const it of projectItems)
      expect(back).toContainEqual(expect.objectContaining({ kind: it.kind, content: it.content, scope: it.scope }));
    // Into the store it came from, nothing is new.
    expect((await t.run('import', '--from', 'agents', agents)).stdout).toMatch(/^imported 4 items from/);
    expect((await t.run('import', '--from', 'agents', agents)).stdout).toMatch(/^imported 0 items from/);
  });
});
