/** One job per file: no source file in src/ grows past 300 lines; the memory root holds a handful of files, the rest in folders named (and described) for their job. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('source files', () => {
  it('none is over 300 lines', () => {
    const long: string[] = [];
    const walk = (d: string) => {
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.tsx?$/.test(n) && readFileSync(p, 'utf8').replace(/\n$/, '').split('\n').length > 300) long.push(p.slice(root.length));
      }
    };
    walk(join(root, 'src'));
    expect(long).toEqual([]);
  });

  it('src/memory keeps at most 10 files at its root, and docs/architecture.md describes each of its folders', () => {
    const dir = join(root, 'src', 'memory');
    const names = readdirSync(dir);
    const files = names.filter((n) => !statSync(join(dir, n)).isDirectory());
    expect(files.length).toBeLessThanOrEqual(10);
    const arch = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const folders = names.filter((n) => statSync(join(dir, n)).isDirectory());
    expect(folders.filter((f) => !arch.includes(`memory/${f}/`))).toEqual([]);
  });
});
