/** Reading other tools' memory files (CLAUDE.md, GEMINI.md, AGENTS.md) and writing an AGENTS.md section. */
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentsMdSection, placeSection, SECTION_END, SECTION_START } from '../../src/memory/porting/agents-md';
import { parseMemoryMarkdown } from '../../src/memory/porting/markdown-items';
import { readToolFiles } from '../../src/memory/porting/read-tool';
import { claudeProjectDir, defaultToolFiles, filesAt } from '../../src/memory/porting/tool-files';
import { projectIdentity } from '../../src/memory/project/project-identity';
import type { MemoryItem } from '../../src/memory/types';
import { ROOT } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

function fixture(): { home: string; project: string } {
  const base = tmpDir();
  cpSync(join(ROOT, 'test', 'fixtures', 'porting'), base, { recursive: true });
  return { home: join(base, 'home'), project: join(base, 'project') };
}

describe('parseMemoryMarkdown', () => {
  it('one item per bullet or paragraph; headings tag; kind headings set the kind; short code stays, long code is skipped', () => {
    const r = parseMemoryMarkdown(
      [
        '---',
        'paths: ["*.ts"]',
        '---',
        '# Code style',
        '',
        'Functions stay short. Prefer named',
        'exports.',
        '',
        '- Build:',
        '  - run `make`',
        '  - then test',
        '* [x] done item',
        '1. numbered',
        '',
        'Regenerate the client:',
        '',
        '```sh',
        'npm run gen',
        '```',
        '',
        '```',
        'a',
        'b',
        'c',
        'd',
        '```',
        '<!-- a comment -->',
        '## Gemini Added Memories',
        '- likes tea',
        '| a | b |',
        '### Details',
        '- green tea',
        '## Next section',
        '- back to the default kind',
      ].join('\n'),
      'pref',
    );
    expect(r.items).toEqual([
      { kind: 'pref', content: 'Functions stay short. Prefer named exports.', tags: ['code-style'] },
      { kind: 'pref', content: 'Build: run `make`', tags: ['code-style'] },
      { kind: 'pref', content: 'Build: then test', tags: ['code-style'] },
      { kind: 'pref', content: 'done item', tags: ['code-style'] },
      { kind: 'pref', content: 'numbered', tags: ['code-style'] },
      { kind: 'pref', content: 'Regenerate the client: `npm run gen`', tags: ['code-style'] },
      { kind: 'fact', content: 'likes tea', tags: [] },
      { kind: 'fact', content: 'green tea', tags: ['details'] },
      { kind: 'pref', content: 'back to the default kind', tags: ['next-section'] },
    ]);
    expect(r.skippedCode).toBe(1);
  });

  it('finds @imports outside code, and a line that is only an import is not an item', () => {
    const r = parseMemoryMarkdown('See @README.md and @~/x.md.\n\n@docs/a.md\n\n`@not/this.md`\n', 'pref');
    expect(r.imports).toEqual(['README.md', '~/x.md', 'docs/a.md']);
    expect(r.items.map((i) => i.content)).toEqual(['See @README.md and @~/x.md.', '`@not/this.md`']);
  });
});

describe('tool files and reading them', () => {
  it('claude: user, project, local, rules, @imports and auto memory, with source and scope', () => {
    const { home, project } = fixture();
    const auto = join(claudeProjectDir(home, project), 'memory');
    mkdirSync(auto, { recursive: true });
    writeFileSync(join(auto, 'MEMORY.md'), '# Memory\n\n- The flaky test is checkout.spec.ts; rerun it once.\n');
    const env = { home };
    const read = readToolFiles('claude', defaultToolFiles('claude', project, project, env), env);
    const scope = projectIdentity(project).scopes[0];
    expect(scope).toBe('id:porting-fixture');
    const by = (c: string) => read.items.find((i) => i.content.includes(c));
    expect(by('Answer tersely')).toMatchObject({ source: 'claude:~/.claude/CLAUDE.md', kind: 'pref' });
    expect(by('Answer tersely')?.scope).toBeUndefined();
    expect(by('British spelling')).toMatchObject({ source: 'claude:~/.claude/my-extra.md' });
    expect(by('British spelling')?.scope).toBeUndefined();
    expect(by('Quote every variable')?.scope).toBeUndefined();
    expect(by('Build:')).toMatchObject({ scope, content: 'Build: `npm run build`', tags: ['commands'] });
    expect(by('Postgres')).toMatchObject({ scope, source: expect.stringMatching(/^claude:.*project\/README\.md$/) });
    expect(by('sandbox')).toMatchObject({ scope, private: true });
    expect(by('zod')?.private).toBeUndefined();
    expect(by('zod')).toMatchObject({ scope });
    expect(by('checkout.spec.ts')).toMatchObject({ scope });
    expect(by('a long example')).toBeUndefined();
    expect(read.notes.some((n) => /left out 1 code block/.test(n))).toBe(true);
  });

  it('an @import that names no file is skipped with a note naming it, not silently', () => {
    const { home, project } = fixture();
    const env = { home };
    mkdirSync(join(project, 'docs'), { recursive: true });
    writeFileSync(join(project, 'CLAUDE.md'), '- Style: see @docs/styel.md\n@docs/missing.md\n- @docs/\n');
    const read = readToolFiles('claude', defaultToolFiles('claude', project, project, env), env);
    expect(read.notes).toContain('@docs/styel.md not read: no such file');
    expect(read.notes).toContain('@docs/missing.md not read: no such file');
    expect(read.items.map((i) => i.content)).toContain('Style: see @docs/styel.md');
  });

  it('gemini: saved memories are facts, secrets redacted; codex: user file global, nested dirs down to cwd', () => {
    const { home, project } = fixture();
    const env = { home };
    const g = readToolFiles('gemini', defaultToolFiles('gemini', project, project, env), env);
    expect(g.items.find((i) => i.content.includes('Helix'))).toMatchObject({ kind: 'fact', source: 'gemini:~/.gemini/GEMINI.md' });
    const token = g.items.find((i) => i.content.startsWith('The staging token'));
    expect(token?.content).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    expect(g.items.find((i) => i.content.includes('immutable'))?.scope).toBe('id:porting-fixture');

    const cwd = join(project, 'pkg', 'web');
    const c = readToolFiles('codex', defaultToolFiles('codex', project, cwd, env), env);
    expect(c.files).toEqual([
      '~/.codex/AGENTS.md',
      '~/.codex/memories/memory_summary.md',
      '~/.codex/memories/MEMORY.md',
      expect.stringMatching(/project\/AGENTS\.md$/),
      expect.stringMatching(/web\/AGENTS\.md$/),
    ]);
    expect(c.items.find((i) => i.content.includes('pnpm` when'))?.scope).toBeUndefined();
    expect(c.items.find((i) => i.content.includes('PascalCase'))).toMatchObject({ scope: 'id:porting-fixture', tags: ['web-package'] });
    // Codex reads AGENTS.override.md instead of AGENTS.md in the same directory.
    writeFileSync(join(home, '.codex', 'AGENTS.override.md'), '- Override wins.\n');
    expect(defaultToolFiles('codex', project, project, env)[0]?.path).toBe(join(home, '.codex', 'AGENTS.override.md'));
    // A PATH names a file or a directory.
    expect(filesAt('agents', project, project, env).map((f) => f.path)).toEqual([join(project, 'AGENTS.md')]);
    expect(filesAt('claude', join(home, '.claude'), project, env).every((f) => f.userLevel)).toBe(true);
  });
});

describe("a project's files lead only into the project and the tool's own directory", () => {
  it("imports and links out of the project are not read, with a note; the user's own files import anywhere", () => {
    const { home, project } = fixture();
    const env = { home };
    writeFileSync(join(home, 'secret-notes.txt'), 'password=hunter2-outside\n\n- A note kept outside any tool.\n');
    writeFileSync(join(home, '.claude', 'personal.md'), '- Personal note from the tool dir.\n');
    writeFileSync(join(project, '..', 'beside.md'), '- BESIDE the project.\n');
    mkdirSync(join(project, 'docs'), { recursive: true });
    symlinkSync(join(home, 'secret-notes.txt'), join(project, 'docs', 'notes.md'));
    writeFileSync(
      join(project, 'CLAUDE.md'),
      '- Read @~/secret-notes.txt and @../beside.md and @docs/notes.md and @/etc/hostname.txt\n- Mine: @~/.claude/personal.md\n',
    );
    const read = readToolFiles('claude', defaultToolFiles('claude', project, project, env), env);
    const all = read.items.map((i) => i.content).join('\n');
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain('BESIDE');
    expect(all).toContain('Personal note from the tool dir.');
    for (const ref of ['@~/secret-notes.txt', '@../beside.md', '@docs/notes.md'])
      expect(read.notes).toContain(`${ref} not read: it is outside the project and ~/.claude, where a project's files may lead`);

    // A project's AGENTS.md that is a link to a file elsewhere is not read at all.
    writeFileSync(join(project, 'AGENTS.md'), '');
    const agents = join(project, 'pkg', 'web', 'AGENTS.md');
    rmSync(agents);
    symlinkSync(join(home, 'secret-notes.txt'), agents);
    const a = readToolFiles('agents', defaultToolFiles('agents', project, join(project, 'pkg', 'web'), env), env);
    expect(a.items.map((i) => i.content).join('\n')).not.toContain('hunter2');
    expect(
      a.notes.some((n) =>
        /pkg\/web\/AGENTS\.md not read: it is outside the project, where a project's files may lead \(a link to elsewhere\?\)/.test(n),
      ),
    ).toBe(true);

    // The user's own file may import from anywhere in their home.
    writeFileSync(join(home, '.claude', 'CLAUDE.md'), '- See @~/secret-notes.txt\n');
    const own = readToolFiles('claude', filesAt('claude', join(home, '.claude', 'CLAUDE.md'), project, env), env);
    expect(own.items.some((i) => i.source === 'claude:~/secret-notes.txt')).toBe(true);
  });
});

describe("Codex's own memories ($CODEX_HOME/memories)", () => {
  it('MEMORY.md: bullets of each block, with its keywords as keys; headers, skill pointers, raw memories and rollout summaries are not items', () => {
    const { home, project } = fixture();
    const env = { home };
    const c = readToolFiles('codex', filesAt('codex', join(home, '.codex', 'memories'), project, env), env);
    expect(c.files).toEqual(['~/.codex/memories/memory_summary.md', '~/.codex/memories/MEMORY.md']);
    const mem = c.items.filter((i) => i.source === 'codex:~/.codex/memories/MEMORY.md');
    expect(mem.map((i) => [i.kind, i.content.slice(0, 30), i.keys])).toEqual([
      ['fact', 'The checkout e2e test is flaky', ['playwright', 'e2e', 'flaky', 'timeout', 'shop-api']],
      ['fact', 'Symptom "Timeout 30000ms excee', ['playwright', 'e2e', 'flaky', 'timeout', 'shop-api']],
      ['fact', 'Release notes come from `git l', ['release notes', 'changelog', 'git log']],
    ]);
    const all = c.items.map((i) => i.content).join('\n');
    for (const never of ['rollout_summary_files', 'keywords:', 'description:', 'cwd=', 'SKILL.md', 'RAW NOTE', 'ROLLOUT NOTE', 'desc:'])
      expect(all).not.toContain(never);
    // The sessions' directories do not exist here: global.
    expect(mem.every((i) => i.scope === undefined)).toBe(true);
  });

  it('memory_summary.md: the profile is a fact, the tips preferences; the index of the folder is left out', () => {
    const { home, project } = fixture();
    const env = { home };
    const c = readToolFiles('codex', filesAt('codex', join(home, '.codex', 'memories', 'memory_summary.md'), project, env), env);
    expect(c.items.map((i) => [i.kind, i.content.slice(0, 24)])).toEqual([
      ['fact', 'A backend developer who '],
      ['pref', 'Keep answers short and p'],
      ['pref', 'Never push to main witho'],
    ]);
    expect(c.items.every((i) => i.scope === undefined && i.source === 'codex:~/.codex/memories/memory_summary.md')).toBe(true);
  });

  it("a block whose sessions all ran in one project on this machine is that project's; mixed or gone is global", () => {
    const { home, project } = fixture();
    const other = join(home, 'elsewhere');
    mkdirSync(other);
    const block = (cwds: string[], text: string) =>
      [
        '---',
        'rollout_summary_files:',
        ...cwds.map((d, k) => `  - s${k}.md (success, cwd=${d}, updated_at=2026-10-01T00:00:00Z)`),
        'keywords: k',
        '---',
        '',
        `- ${text}`,
        '',
      ].join('\n');
    const file = join(home, 'MEMORY.md');
    writeFileSync(
      file,
      block([project, join(project, 'pkg', 'web')], 'Here only.') + block([project, other], 'Mixed.') + block(['/no/such/dir'], 'Gone.'),
    );
    const env = { home };
    const items = readToolFiles('codex', [{ path: file, userLevel: true }], env).items;
    expect(items.map((i) => [i.content, i.scope])).toEqual([
      ['Here only.', 'id:porting-fixture'],
      ['Mixed.', undefined],
      ['Gone.', undefined],
    ]);
  });
});

describe('AGENTS.md section', () => {
  const item = (id: number, kind: MemoryItem['kind'], content: string): MemoryItem => ({ id, ts: '2026-01-01T00:00:00Z', kind, content });

  it('renders kinds under headings that import reads back with the same kinds', () => {
    const section = agentsMdSection([item(2, 'fact', 'db on 5433'), item(1, 'pref', 'use\npnpm')]);
    expect(section.startsWith(SECTION_START) && section.endsWith(SECTION_END)).toBe(true);
    const back = parseMemoryMarkdown(section, 'pref').items.map((i) => [i.kind, i.content]);
    expect(back).toEqual([
      ['fact', 'db on 5433'],
      ['pref', 'use pnpm'],
    ]);
    expect(parseMemoryMarkdown(agentsMdSection([]), 'pref').items).toEqual([]);
  });

  it('replaces only its own section; appends when there is none; refuses broken markers', () => {
    const first = placeSection('# Mine\n\n- keep me\n', 'S1');
    expect(first).toEqual({ ok: true, text: '# Mine\n\n- keep me\n\nS1\n' });
    const withSection = `# Mine\n\n${SECTION_START}\nold\n${SECTION_END}\n\n## After\n- also mine\n`;
    expect(placeSection(withSection, `${SECTION_START}\nnew\n${SECTION_END}`)).toEqual({
      ok: true,
      text: `# Mine\n\n${SECTION_START}\nnew\n${SECTION_END}\n\n## After\n- also mine\n`,
    });
    expect(placeSection(`${SECTION_END}\n${SECTION_START}\n`, 'x').ok).toBe(false);
  });
});

describe('lines with no value left', () => {
  it('a label whose value is redacted, a secret or empty is not an item; a sentence that mentions a secret is', () => {
    const { home, project } = fixture();
    writeFileSync(
      join(project, 'CLAUDE.md'),
      [
        '- Deployment token: [redacted]',
        '- API key = ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        '- Staging password:',
        '- The staging token is ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        '- Build: `npm run build`',
        '- Tests:',
        '  - run with vitest',
        '',
      ].join('\n'),
    );
    const env = { home, root: project };
    const read = readToolFiles('claude', filesAt('claude', join(project, 'CLAUDE.md'), project, env), env);
    expect(read.items.map((i) => i.content)).toEqual([
      'The staging token is [redacted]',
      'Build: `npm run build`',
      'Tests: run with vitest',
    ]);
    expect(read.notes.some((n) => /CLAUDE\.md: left out 3 line\(s\) with no value/.test(n))).toBe(true);
  });
});
