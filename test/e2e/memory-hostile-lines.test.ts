/**
 * A memory.jsonl of a million lines no hand edit would write, through the real CLI: read in
 * seconds (a million lines of `{` once took a JSON5 attempt per line after each, for about a
 * quarter of an hour), 20 lines named and one summing up the rest, exit 0, the items around them
 * listed, the file untouched.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const item = (id: number) => JSON.stringify({ id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: `item ${id}` });

async function listOf(text: string) {
  const home = tmpDir();
  const dir = join(home, 'd');
  mkdirSync(dir, { mode: 0o700 });
  const path = join(dir, 'memory.jsonl');
  writeFileSync(path, text, { mode: 0o600 });
  const r = await runAish(['--data-dir', dir, 'memory', 'list', '--json'], { home, timeoutMs: 120_000 });
  expect(readFileSync(path, 'utf8') === text).toBe(true);
  return r;
}

describe('a memory.jsonl of a million hostile lines', () => {
  for (const [name, line] of [
    ['`{`', '{'],
    ['`x`', 'x'],
  ] as const) {
    it(`a million lines of ${name} between two items: both listed, 21 warning lines, exit 0`, async () => {
      const r = await listOf(`${item(1)}\n${`${line}\n`.repeat(1_000_000)}${item(2)}\n`);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as Array<{ id: number }>).map((it) => it.id)).toEqual([2, 1]);
      const warnings = r.stderr.trimEnd().split('\n');
      expect(warnings).toHaveLength(21);
      expect(warnings[0]).toMatch(/^memory\.jsonl:2: not valid JSON or JSON5 \(/);
      expect(warnings[20]).toMatch(/^memory\.jsonl: 999980 more lines skipped \(lines 22–1000001\); `aish memory compact` moves/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }, 180_000);
  }

  it('one line of 50 MB that is not JSON: one warning, exit 0', async () => {
    const r = await listOf(`${item(1)}\n{${'x'.repeat(50_000_000)}\n${item(2)}\n`);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: number }>).map((it) => it.id)).toEqual([2, 1]);
    expect(r.stderr).toBe('memory.jsonl:2: not valid JSON or JSON5 (not JSON, and too long for JSON5 (50000001 characters))\n');
  }, 180_000);
});
