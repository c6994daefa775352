/** One job per file: no source file in src/ grows past 300 lines. */
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
});
