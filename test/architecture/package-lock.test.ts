/** `npm install` on a fresh clone must not rewrite package-lock.json: its root entry matches package.json. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

describe('package-lock.json', () => {
  it('has the same name, version, bin and dependencies as package.json', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      name: string;
      version: string;
      packages: Record<string, Record<string, unknown>>;
    };
    const root = lock.packages['']!;
    expect([lock.name, lock.version]).toEqual([pkg.name, pkg.version]);
    expect(root.bin).toEqual(pkg.bin);
    expect(root.dependencies).toEqual(pkg.dependencies);
    expect(root.devDependencies).toEqual(pkg.devDependencies);
  });
});
