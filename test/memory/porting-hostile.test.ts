/** A project's CLAUDE.md written to drown the import: thousands of @imports, real or not. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readToolFiles } from '../../src/memory/porting/read-tool';
import { filesAt } from '../../src/memory/porting/tool-files';
import { tmpDir } from '../helpers/tmp';

function project(claudeMd: string, files: Record<string, string> = {}): { home: string; dir: string } {
  const home = tmpDir();
  const dir = join(home, 'proj');
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, 'CLAUDE.md'), claudeMd);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return { home, dir };
}

describe('a CLAUDE.md of many imports', () => {
  it('5000 missing imports: 20 named, one line for the rest', () => {
    const { home, dir } = project('- a fact\n' + Array.from({ length: 5000 }, (_, i) => `@f${i}.md\n`).join(''));
    const env = { home };
    const r = readToolFiles('claude', filesAt('claude', join(dir, 'CLAUDE.md'), dir, env), env);
    expect(r.items.map((i) => i.content)).toEqual(['a fact']);
    expect(r.notes).toHaveLength(21);
    expect(r.notes[0]).toBe('@f0.md not read: no such file');
    expect(r.notes[20]).toBe('4980 more notes like these (the first 20 are above)');
  });

  it('300 real imports: 256 files read at most, the rest named as not read', () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}.md`, `- fact ${i}\n`]));
    const { home, dir } = project(
      Object.keys(files)
        .map((f) => `@${f}\n`)
        .join(''),
      files,
    );
    const env = { home };
    const r = readToolFiles('claude', filesAt('claude', join(dir, 'CLAUDE.md'), dir, env), env);
    expect(r.files).toHaveLength(256);
    expect(r.items).toHaveLength(255);
    expect(r.notes[0]).toBe('@f255.md not read: one import reads at most 256 files');
    expect(r.notes[20]).toBe('25 more notes like these (the first 20 are above)');
  });
});
