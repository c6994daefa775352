/** Rows a newcomer met on the command line: the text plan, exit codes without a key, -e's hint, -c after a rewind, search copies. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

function seed(path: string, newer: number): void {
  const lines = [
    JSON.stringify({ id: 1, ts: '2025-01-01T10:00:00Z', kind: 'fact', content: 'the staging database lives on host zebra-17' }),
  ];
  for (let k = 0; k < newer; k++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString();
    lines.push(JSON.stringify({ id: 2 + k, ts, kind: 'fact', content: `note ${k}: the build is fast and the tests are green (${k})` }));
  }
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, lines.join('\n') + '\n');
}

describe('aish memory plan (text)', () => {
  it('prints each [recall] item once', async () => {
    const home = tmpDir();
    const data = join(home, 'd');
    seed(join(data, 'memory.jsonl'), 200);
    const r = await runAish(['--data-dir', data, 'memory', 'plan', 'where does the staging database live?'], { home, cwd: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const recall = r.stdout.split('\n').filter((l) => l.includes('#1 (fact)'));
    expect(recall).toHaveLength(1);
    expect(recall[0]).toMatch(/^ {2}\d\.\d\d {2}#1 \(fact\) the staging database lives on host zebra-17/);
  });
});
