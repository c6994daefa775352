/**
 * The Engine stays a thin front door: at most 150 lines as Prettier formats it, and nothing that
 * runs commands or draws the screen can reach it — commands get narrow services, the router and
 * the App a session handle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import type { CommandServices, Need } from '../../src/commands/types';
import type { Engine } from '../../src/core/engine';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENGINE = join(root, 'src/core/engine.ts');
const MAX_ENGINE_LINES = 150;

async function formattedLines(text: string, filepath: string): Promise<number> {
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  const out = await prettier.format(text, { ...options, filepath });
  return out.replace(/\n$/, '').split('\n').length;
}

/** Source files under `dir` (relative to the repository). */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(n)) out.push(p);
    }
  };
  walk(join(root, dir));
  return out;
}

/** Whether a file imports the Engine's module (type-only imports and re-exports included). */
const importsEngine = (text: string): boolean => /\b(?:from|import)\s*\(?\s*['"][./]*(?:core\/)?engine['"]/.test(text);

// Compile-time: no command service is something the Engine itself could be handed in as.
type EngineShaped = { [K in Need]: Engine extends CommandServices[K] ? K : never }[Need];
const noServiceTakesTheEngine: [EngineShaped] extends [never] ? true : false = true;
// Compile-time: the session's parts are not reachable through an Engine (front ends use its verbs).
const noPublicParts: 'parts' extends keyof Engine ? false : true = true;

describe('the Engine', () => {
  it(`is at most ${MAX_ENGINE_LINES} lines, Prettier-formatted`, async () => {
    expect(await formattedLines(readFileSync(ENGINE, 'utf8'), ENGINE)).toBeLessThanOrEqual(MAX_ENGINE_LINES);
    // The check itself can fail: a file one line over is caught.
    const over = Array.from({ length: MAX_ENGINE_LINES + 1 }, (_, i) => `export const x${i} = ${i};`).join('\n');
    expect(await formattedLines(over, ENGINE)).toBeGreaterThan(MAX_ENGINE_LINES);
  });

  it('is imported by no command, not by the input router, and not by the App or its components', () => {
    const files = [
      ...sources('src/commands'),
      ...sources('src/input'),
      join(root, 'src/frontends/repl/App.tsx'),
      ...sources('src/frontends/repl/components'),
    ];
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => importsEngine(readFileSync(f, 'utf8'))).map((f) => f.slice(root.length))).toEqual([]);
    expect(noServiceTakesTheEngine).toBe(true);
    expect(noPublicParts).toBe(true);
  });

  it('the import check sees the forms an import of the Engine can take', () => {
    for (const line of [
      "import type { Engine } from '../core/engine';",
      "import { Engine } from '../../core/engine';",
      "export { Engine } from './engine';",
      "const m = await import('../core/engine');",
    ])
      expect(importsEngine(line)).toBe(true);
    for (const line of ["import { Engine2 } from '../core/engine-parts';", "import { x } from '../core/session-parts';"])
      expect(importsEngine(line)).toBe(false);
  });
});
