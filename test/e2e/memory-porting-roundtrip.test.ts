/**
 * Import and export round trips through the real CLI: exporting into the AGENTS.md the items came
 * from says nothing twice; a label whose value is a redacted secret is not an item; an `@import`
 * under a bullet is not glued into its text; an import out of bounds is named; `--dry-run` marks
 * CLAUDE.local.md's items private; a short tombstone in an imported file forgets its item.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

interface Listed {
  kind: string;
  content: string;
  scope?: string;
  private?: boolean;
}

function setup() {
  const base = tmpDir();
  cpSync(join(ROOT, 'test', 'fixtures', 'porting'), base, { recursive: true });
  const home = join(base, 'home');
  const project = join(base, 'project');
  const data = join(base, 'data');
  const run = (...args: string[]) => runAish(['--data-dir', data, 'memory', ...args], { home, cwd: project });
  const list = async () => JSON.parse((await run('list', '--json')).stdout || '[]') as Listed[];
  return { base, home, project, data, run, list };
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('import / export round trips', () => {
  it('exporting agents-md into the AGENTS.md the items were imported from writes each of them once', async () => {
    const t = setup();
    const agents = join(t.project, 'AGENTS.md');
    expect((await t.run('import', '--from', 'agents', agents)).code).toBe(0);
    await t.run('add', '--project', 'fact', 'the release branch is cut on Thursdays');
    // The same words typed again by hand are already in the file too.
    await t.run('add', '--project', 'pref', 'install deps: `pnpm install`.');
    const r = await t.run('export', '--format', 'agents-md', agents);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^exported 1 project item to .*AGENTS\.md \(its aish memory section\); left out \d+ already in it\n$/);
    const text = readFileSync(agents, 'utf8');
    expect(count(text, 'Install deps: `pnpm install`')).toBe(1);
    expect(count(text, 'Start dev server: `pnpm dev`')).toBe(1);
    expect(count(text, 'the release branch is cut on Thursdays')).toBe(1);
    // Again: nothing new, nothing doubled.
    await t.run('export', '--format', 'agents-md', agents);
    expect(readFileSync(agents, 'utf8')).toBe(text);
    // Another machine imports the file, section and all, and exports back: the section keeps what it held.
    const other = (...args: string[]) =>
      runAish(['--data-dir', join(t.base, 'other-data'), 'memory', ...args], { home: t.home, cwd: t.project });
    expect((await other('import', '--from', 'agents', agents)).code).toBe(0);
    expect((await other('export', '--format', 'agents-md', agents)).code).toBe(0);
    expect(readFileSync(agents, 'utf8')).toBe(text);
  });

  it('a redacted or empty value is not an item; @imports under a bullet are not glued in; @/etc/hostname is named; --dry-run marks private items', async () => {
    const t = setup();
    writeFileSync(join(t.project, 'docs-style.md'), '- Two-space indents.\n');
    writeFileSync(
      join(t.project, 'CLAUDE.md'),
      [
        '# Shop',
        '',
        '- Deployment token: [redacted]',
        '- API key: ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        '- Staging password:',
        '- Style guide, read it first',
        '  @docs-style.md',
        '- Docs:',
        '  - @docs-style.md',
        '- Host: @/etc/hostname',
        '',
      ].join('\n'),
    );
    const dry = await t.run('import', '--from', 'claude', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toMatch(/Deployment token|API key|Staging password/);
    expect(dry.stdout).toContain('Style guide, read it first  (');
    expect(dry.stdout).not.toMatch(/\+ .*@docs-style\.md/);
    expect(dry.stdout).toContain('Two-space indents.');
    // Three labels without a value, and "Docs:", whose one sub-bullet was an import.
    expect(dry.stderr).toMatch(/CLAUDE\.md: left out 4 line\(s\) with no value/);
    expect(dry.stderr).toContain('@/etc/hostname not read: ');
    // CLAUDE.local.md's items are private: the dry run says so, as the list after will.
    expect(dry.stdout).toMatch(
      /\+ pref \[id:porting-fixture\] My sandbox is at http:\/\/localhost:3001 {2}\(claude:.*CLAUDE\.local\.md\) {2}\(private\)/,
    );
    expect(dry.stdout).not.toMatch(/Style guide.*\(private\)/);

    await t.run('import', '--from', 'claude');
    const items = await t.list();
    expect(items.map((i) => i.content).join('\n')).not.toMatch(/Deployment token|API key|Staging password|@docs-style/);
    expect(items.find((i) => i.content.startsWith('My sandbox'))?.private).toBe(true);
  });

  it('an imported file’s {"forget":3} tombstone is honoured: the item it forgot does not come in', async () => {
    const t = setup();
    const file = join(t.base, 'hand.jsonl');
    writeFileSync(
      file,
      [
        '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"kept item"}',
        '{"id":3,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"the old staging host is db-7"}',
        '{"forget":3}',
        '',
      ].join('\n'),
    );
    const r = await t.run('import', file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('missing id');
    expect(r.stderr).toContain('hand.jsonl:2: item 3 not imported: line 3 of this file forgets it');
    const items = await t.list();
    expect(items.map((i) => i.content)).toEqual(['kept item']);
  });
});
