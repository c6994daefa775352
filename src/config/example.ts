/**
 * Where config.example.ts is: it ships in the package (package.json `files`), beside dist/ and src/,
 * so hints can name a path the user can open instead of a bare file name.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tildify } from '../util/paths';

/** The installed config.example.ts, found above this module (src/config/ or dist/chunks/); null if absent. */
export function exampleConfigPath(from: string = import.meta.url): string | null {
  let dir = dirname(fileURLToPath(from));
  for (let i = 0; i < 4; i++) {
    const p = join(dir, 'config.example.ts');
    if (existsSync(p)) return p;
    dir = dirname(dir);
  }
  return null;
}

/** `see ~/…/aish/config.example.ts` (every key, commented); the package's name when it is missing. */
export function exampleConfigHint(): string {
  const p = exampleConfigPath();
  return p ? `see ${tildify(p)} (every key, with comments)` : 'see config.example.ts in the aish package (every key, with comments)';
}

/** How to start a config file: copy the installed example to TARGET (the file aish would read). */
export function newConfigHint(target: string): string {
  const p = exampleConfigPath();
  return `copy ${p ? tildify(p) : 'config.example.ts from the aish package'} to ${tildify(target)}`;
}
