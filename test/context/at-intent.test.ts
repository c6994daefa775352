/** A mistyped `@path` stops the prompt; names, scopes, mentions, e-mails and URLs stay as typed. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writtenLikePath } from '../../src/context/at-intent';
import { readAtFiles } from '../../src/context/at-files';
import { tmpDir } from '../helpers/tmp';

function project(): string {
  const d = tmpDir();
  writeFileSync(join(d, 'README.md'), '# Demo\n');
  mkdirSync(join(d, 'src'));
  writeFileSync(join(d, 'src', 'main.ts'), 'x\n');
  return d;
}
const read = (text: string, cwd: string) => readAtFiles(text, { cwd, maxFileBytes: 256 * 1024 });

describe('an @word written like a path', () => {
  it.each([
    'READNE.md',
    'package.jsn.json',
    'src/mian.ts',
    'srcc/main.ts',
    'src/utils/',
    'a/b/c',
    './notes',
    '../other/x',
    '~/nowhere',
    '/etc/nope',
    '.env',
    '.gitignore',
    'Makefile',
    'config.YAML',
  ])('@%s is a path', (w) => {
    expect(writtenLikePath(w)).toBe(true);
  });

  it.each([
    'alice',
    'types/node',
    'babel/preset-env',
    'types/node@20.1.0',
    'org/team',
    'example.com',
    'vercel.app',
    'team.io',
    'v1.2.3',
    'Override',
    'media',
    'https://example.com/a/b.md',
    '',
  ])('@%s is not', (w) => {
    expect(writtenLikePath(w)).toBe(false);
  });
});

describe('readAtFiles with a mistyped path', () => {
  it('is refused in one line naming the closest file, so the prompt is not sent', () => {
    const d = project();
    expect(read('explain @READNE.md and @src/mian.ts.', d).refused).toEqual([
      '@READNE.md: no such file or directory (did you mean @README.md?) — not attached',
      '@src/mian.ts: no such file or directory (did you mean @src/main.ts?) — not attached',
    ]);
    expect(read('see @nowhere/at/all.md', d).refused).toEqual(['@nowhere/at/all.md: no such file or directory — not attached']);
  });

  it('a word with one slash under a directory that is here is a path (@src/mian), an npm scope is not', () => {
    const d = project();
    expect(read('look at @src/mian please', d).refused).toEqual([
      '@src/mian: no such file or directory (did you mean @src/main.ts?) — not attached',
    ]);
    expect(read('install @types/node and @angular/core', d)).toEqual({ blocks: [], refused: [] });
    // A types/ folder here does not make @types/node a path: nothing in it is close to "node".
    mkdirSync(join(d, 'types'));
    writeFileSync(join(d, 'types', 'global.d.ts'), '');
    expect(read('install @types/node', d)).toEqual({ blocks: [], refused: [] });
  });

  it.each(['src/main.ts:12', 'src/main.ts:12:5', 'src/main.ts:10-20', 'src/main.ts#L3', 'src/main.ts#L3-L9', 'src/main.ts:12.'])(
    '@%s: a line reference attaches the file, the prompt keeps the line',
    (w) => {
      const d = project();
      const r = read(`what is wrong at @${w}`, d);
      expect(r.refused).toEqual([]);
      expect(r.blocks).toHaveLength(1);
      expect(r.blocks[0]).toMatch(/^src\/main\.ts:\n/);
    },
  );

  it('a line reference on a mistyped file is refused like the file', () => {
    const d = project();
    expect(read('see @src/mian.ts:12', d).refused).toEqual([
      '@src/mian.ts: no such file or directory (did you mean @src/main.ts?) — not attached',
    ]);
  });

  it('once per word, beside the files that are there', () => {
    const d = project();
    const r = read('@README.md @READNE.md @READNE.md', d);
    expect(r.blocks).toHaveLength(1);
    expect(r.refused).toHaveLength(1);
  });

  it('prose with mentions, scopes, e-mails and URLs sends as typed', () => {
    const d = project();
    const text = 'ask @alice about @types/node and @babel/core@7, mail bob@x.md, see @https://x.org/a.md or @example.com; (@team)';
    expect(read(text, d)).toEqual({ blocks: [], refused: [] });
  });
});
