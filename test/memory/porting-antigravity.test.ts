/** `--from antigravity`: ~/.gemini/antigravity-cli/AGENTS.md (global), AGENTS.md and .agents/rules/*.md (the project's). */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileRule } from '../../src/memory/porting/allowed-files';
import { readToolFiles } from '../../src/memory/porting/read-tool';
import { defaultToolFiles, filesAt } from '../../src/memory/porting/tool-files';
import { tmpDir } from '../helpers/tmp';

function fixture(): { home: string; project: string } {
  const base = tmpDir();
  const home = join(base, 'home');
  const project = join(base, 'project');
  mkdirSync(join(home, '.gemini', 'antigravity-cli'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'antigravity-cli', 'AGENTS.md'), '# Preferences\n\n- Answers are short and in British English.\n');
  writeFileSync(join(home, '.gemini', 'antigravity-cli', 'settings.json'), '{"model": "x"}\n');
  mkdirSync(join(project, '.agents', 'rules'), { recursive: true });
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, 'AGENTS.md'), '- The service is deployed with `make ship`.\n');
  writeFileSync(join(project, '.agents', 'rules', 'style.md'), '- Tests live beside the code they test.\n');
  writeFileSync(join(project, '.agents', 'mcp_config.json'), '{"mcpServers": {}}\n');
  return { home, project };
}

describe('import --from antigravity', () => {
  it('reads the global AGENTS.md as global items and the project files as the project’s; nothing else', () => {
    const { home, project } = fixture();
    const env = { home };
    const r = readToolFiles('antigravity', defaultToolFiles('antigravity', project, project, env), env);
    expect(r.files).toEqual([
      '~/.gemini/antigravity-cli/AGENTS.md',
      expect.stringMatching(/project\/AGENTS\.md$/),
      expect.stringMatching(/project\/\.agents\/rules\/style\.md$/),
    ]);
    expect(r.items.find((i) => i.content.includes('British English'))).toMatchObject({
      kind: 'pref',
      source: 'antigravity:~/.gemini/antigravity-cli/AGENTS.md',
    });
    expect(r.items.find((i) => i.content.includes('British English'))?.scope).toBeUndefined();
    expect(r.items.find((i) => i.content.includes('make ship'))?.scope).toEqual(expect.any(String));
    expect(r.items.find((i) => i.content.includes('beside the code'))?.scope).toEqual(expect.any(String));
    expect(r.items.some((i) => i.content.includes('mcpServers'))).toBe(false);
  });

  it('the rules directory named directly is read; in antigravity-cli only AGENTS.md is memory, however it is reached', () => {
    const { home, project } = fixture();
    const env = { home };
    expect(filesAt('antigravity', join(project, '.agents', 'rules'), project, env).map((f) => f.path)).toEqual([
      join(project, '.agents', 'rules', 'style.md'),
    ]);
    const rule = fileRule(env, [project]);
    expect(rule.refusal(join(home, '.gemini', 'antigravity-cli', 'AGENTS.md'))).toBeNull();
    expect(rule.refusal(join(home, '.gemini', 'antigravity-cli', 'settings.json'))).toMatch(/not a memory file Antigravity documents/);
    // A link in the project to the settings is refused as what it points at.
    symlinkSync(join(home, '.gemini', 'antigravity-cli', 'settings.json'), join(project, '.agents', 'rules', 'sneaky.md'));
    const r = readToolFiles('antigravity', filesAt('antigravity', join(project, '.agents', 'rules'), project, env), env);
    expect(r.items.some((i) => i.content.includes('model'))).toBe(false);
    expect(r.notes.join('\n')).toMatch(/sneaky\.md.*not a memory file Antigravity documents/);
  });
});
