/**
 * Narrow handles: nothing outside src/memory/ reaches the store. Commands get the memory service;
 * `aish mcp`'s tools, the model's memory_remember and capture read and write items through
 * MemorySession.writes() (memory/review/writes.ts). A `.store()` call anywhere else in src/ —
 * MemorySession's or any other object's — fails here until it is given a named verb instead.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Source files under src/, outside src/memory/. */
function outsideMemory(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) {
        if (p !== join(root, 'src', 'memory')) walk(p);
      } else if (/\.tsx?$/.test(n)) out.push(p);
    }
  };
  walk(join(root, 'src'));
  return out;
}

/** `.store()` calls (whitespace and line breaks between the parts allowed, as Prettier may split a chain). */
const STORE_CALL = /\.\s*store\s*\(\s*\)/g;

describe('narrow handles', () => {
  it('finds the code it checks', () => {
    const files = outsideMemory().map((f) => relative(root, f));
    expect(files).toContain('src/frontends/mcp/memory-tools.ts');
    expect(files).toContain('src/core/capture-deps.ts');
    expect(files.some((f) => f.startsWith('src/memory/'))).toBe(false);
  });

  it('no code outside src/memory/ calls .store()', () => {
    const calls: string[] = [];
    for (const f of outsideMemory()) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(STORE_CALL)) calls.push(`${relative(root, f)}:${text.slice(0, m.index).split('\n').length}`);
    }
    expect(calls).toEqual([]);
  });
});
