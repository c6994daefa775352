/** `@path` in a prompt: what is attached, what is refused, what is left alone; and Tab completion after `@`. */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeAtPath } from '../../src/context/at-complete';
import { atWords, labelled, language, readAtFiles, withAtFiles } from '../../src/context/at-files';
import { AishError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

const MAX = 256 * 1024;

function project(): string {
  const d = tmpDir();
  writeFileSync(join(d, 'README.md'), '# Demo\n\nHello from the readme.\n');
  writeFileSync(join(d, 'main.ts'), 'export const x = 1;\n');
  mkdirSync(join(d, 'src', 'deep'), { recursive: true });
  writeFileSync(join(d, 'src', 'a.ts'), 'a\n');
  writeFileSync(join(d, 'src', '.hidden'), 'h\n');
  return d;
}

const read = (text: string, cwd: string, maxFileBytes = MAX) => readAtFiles(text, { cwd, maxFileBytes });

describe('@path references', () => {
  it('a text file is attached as a fenced block labelled with the path, in the language of its extension', () => {
    const d = project();
    const sent = withAtFiles('explain @README.md please', { cwd: d, maxFileBytes: MAX }, () => {});
    expect(sent).toBe('explain @README.md please\n\nREADME.md:\n```markdown\n# Demo\n\nHello from the readme.\n```');
  });

  it('several files, each once, in the order named; punctuation after a reference is not part of it', () => {
    const d = project();
    const r = read('compare @main.ts, @src/a.ts and (@main.ts).', d);
    expect(r.refused).toEqual([]);
    expect(r.blocks).toEqual(['main.ts:\n```typescript\nexport const x = 1;\n```', 'src/a.ts:\n```typescript\na\n```']);
  });

  it('a directory is attached as its listing, subdirectories with a trailing /', () => {
    const d = project();
    expect(read('what is in @src/', d).blocks).toEqual(['src/ (directory listing):\n```\n.hidden\na.ts\ndeep/\n```']);
    expect(read('and @src/deep', d).blocks).toEqual(['src/deep/ (directory listing):\n```\n(empty)\n```']);
    expect(read('look in @src/deep/.', d).blocks).toEqual(['src/deep/ (directory listing):\n```\n(empty)\n```']);
    expect(read('@/', d).blocks[0]).toMatch(/^\/ \(directory listing\):\n```\n/);
  });

  it('absolute paths and ~/ work; relative ones are relative to the directory given', () => {
    const d = project();
    expect(read(`see @${join(d, 'main.ts')}`, '/').blocks).toHaveLength(1);
    expect(read('see @main.ts', join(d, 'src')).blocks).toEqual([]);
    const home = readAtFiles('@~/', { cwd: '/', maxFileBytes: MAX });
    expect(home.blocks[0]).toMatch(/^~\/ \(directory listing\):\n/);
  });

  it('a word that names no path, an e-mail address and a lone @ are left as typed', () => {
    const d = project();
    const text = 'ask @nobody or mail me@README.md — @ here, @ and foo@main.ts';
    expect(read(text, d)).toEqual({ blocks: [], refused: [] });
    expect(withAtFiles(text, { cwd: d, maxFileBytes: MAX }, () => {})).toBe(text);
    expect(atWords(text)).toEqual(['nobody']);
  });

  it('a binary file is refused: NUL bytes, or bytes that are not UTF-8', () => {
    const d = project();
    writeFileSync(join(d, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
    writeFileSync(join(d, 'latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    expect(read('@logo.png @latin1.txt', d)).toEqual({
      blocks: [],
      refused: [
        '@logo.png: binary (NUL bytes or invalid UTF-8), not text — not attached',
        '@latin1.txt: binary (NUL bytes or invalid UTF-8), not text — not attached',
      ],
    });
  });

  it('a UTF-16 file (with a byte-order mark or without) is named as such, with how to convert it', () => {
    const d = project();
    writeFileSync(join(d, 'bom.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello world\n', 'utf16le')]));
    writeFileSync(join(d, 'be.txt'), Buffer.from('hello world\n', 'utf16le').swap16());
    writeFileSync(join(d, 'le.txt'), Buffer.from('hello world\n', 'utf16le'));
    const why = 'UTF-16 text, not UTF-8 (convert it: iconv -f UTF-16 -t UTF-8) — not attached';
    expect(read('@bom.txt @be.txt @le.txt', d).refused).toEqual([`@bom.txt: ${why}`, `@be.txt: ${why}`, `@le.txt: ${why}`]);
  });

  it('a file over maxFileBytes is refused with its size and the limit', () => {
    const d = project();
    writeFileSync(join(d, 'big.log'), 'x'.repeat(1024 * 1024));
    expect(read('@big.log', d).refused).toEqual(['@big.log: 1.0 MB, over context.maxFileBytes (256 KB) — not attached']);
    writeFileSync(join(d, 'mid.txt'), 'z'.repeat(200_000));
    expect(read('@mid.txt', d).blocks[0]).toBe(`mid.txt:\n\`\`\`\n${'z'.repeat(200_000)}\n\`\`\``);
    writeFileSync(join(d, 'edge.txt'), 'y'.repeat(100));
    expect(read('@edge.txt', d, 100).blocks).toHaveLength(1);
    expect(read('@edge.txt', d, 99).refused).toEqual(['@edge.txt: 100 bytes, over context.maxFileBytes (99 bytes) — not attached']);
  });

  it('a file whose size stat does not know (/proc) is read to its end', () => {
    const r = read('@/proc/self/status', '/');
    expect(r.refused).toEqual([]);
    expect(r.blocks[0]).toMatch(/^\/proc\/self\/status:\n```\nName:/);
  });

  it('a device is refused without being read, also through a symlink', () => {
    const d = project();
    symlinkSync('/dev/urandom', join(d, 'random'));
    expect(read('@/dev/urandom and @random and @/dev/null', d).refused).toEqual([
      '@/dev/urandom: not a regular file (a character device) — not attached',
      '@random: not a regular file (a character device) — not attached',
      '@/dev/null: not a regular file (a character device) — not attached',
    ]);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable file is refused', () => {
    const d = project();
    writeFileSync(join(d, 'secret.txt'), 's\n');
    chmodSync(join(d, 'secret.txt'), 0);
    expect(read('@secret.txt', d).refused).toEqual(['@secret.txt: permission denied — not attached']);
  });

  it('a refusal reports each line and throws, so the prompt is not sent', () => {
    const d = project();
    const lines: string[] = [];
    expect(() => withAtFiles('@README.md @/dev/urandom', { cwd: d, maxFileBytes: MAX }, (l) => lines.push(l))).toThrow(AishError);
    expect(lines).toEqual(['@/dev/urandom: not a regular file (a character device) — not attached']);
    expect(() => withAtFiles('@/dev/urandom', { cwd: d, maxFileBytes: MAX }, () => {})).toThrow(
      'prompt not sent: a file could not be attached',
    );
  });

  it('a fence is longer than any backtick run in the file', () => {
    expect(labelled('x.md', 'markdown', 'a\n```js\ncode\n```\n')).toBe('x.md:\n````markdown\na\n```js\ncode\n```\n````');
    expect(labelled('y', '', 'plain')).toBe('y:\n```\nplain\n```');
  });

  it('the language comes from the extension or a well-known name', () => {
    expect([language('a.py'), language('b/Dockerfile'), language('c.YML'), language('d.unknown'), language('LICENSE')]).toEqual([
      'python',
      'dockerfile',
      'yaml',
      '',
      '',
    ]);
  });
});

describe('completion after @', () => {
  it('completes names in the directory, directories with a trailing /', () => {
    const d = project();
    expect(completeAtPath('READ', d)).toEqual(['README.md']);
    expect(completeAtPath('s', d)).toEqual(['src/']);
    expect(completeAtPath('', d)).toEqual(['README.md', 'main.ts', 'src/']);
  });

  it('inside a directory the typed part is kept; dot files only when a dot is typed', () => {
    const d = project();
    expect(completeAtPath('src/', d)).toEqual(['src/a.ts', 'src/deep/']);
    expect(completeAtPath('src/.', d)).toEqual(['src/.hidden']);
    expect(completeAtPath('nowhere/x', d)).toEqual([]);
    writeFileSync(join(d, 'src', 'a b.txt'), 'x\n');
    expect(completeAtPath('src/a', d)).toEqual(['src/a.ts']);
  });

  it('a symlink to a directory completes as a directory', () => {
    const d = project();
    symlinkSync(join(d, 'src'), join(d, 'linked'));
    expect(completeAtPath('lin', d)).toEqual(['linked/']);
  });
});
