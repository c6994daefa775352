/** Reading a writer file of the sync repository from a byte on (src/memory/sync/tail.ts). */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINE_MAX, readTail } from '../../src/memory/sync/tail';
import { tmpDir } from '../helpers/tmp';

const rec = (n: number) =>
  JSON.stringify({
    uid: `01TAIL${String(n).padStart(20, '0')}`,
    hlc: '1795721490946-0000',
    ts: '2026-01-01T00:00:00Z',
    kind: 'fact',
    content: `item ${n}`,
  });
const header = JSON.stringify({ meta: { format: 'aish-memory-sync', version: 1, writer: 'ab', part: 1, name: 'laptop' } });

describe('readTail', () => {
  it('reads whole lines past a byte, names the writer from the header, and leaves a torn last line for later', () => {
    const path = join(tmpDir(), 'w.jsonl');
    const head = `${header}\n${rec(1)}\n`;
    writeFileSync(path, `${head}${rec(2)}\nnot json\n${'x'.repeat(LINE_MAX + 1)}\n${rec(3).slice(0, 20)}`);
    const t = readTail(path, Buffer.byteLength(head), { header: true })!;
    expect(t.records.map((r) => r.uid)).toEqual([`01TAIL${String(2).padStart(20, '0')}`]);
    expect(t.bad).toBe(2);
    expect(t.name).toBe('laptop');
    // up to the end of the last whole line: the torn one is read again next time
    expect(t.end).toBe(t.size - rec(3).slice(0, 20).length);
  });

  it('a file shorter than the position was rewritten: read from the start; a link is not read at all', () => {
    const dir = tmpDir();
    const path = join(dir, 'w.jsonl');
    writeFileSync(path, `${rec(1)}\n`);
    const t = readTail(path, 10_000)!;
    expect(t.from).toBe(0);
    expect(t.records).toHaveLength(1);
    symlinkSync(path, join(dir, 'link.jsonl'));
    expect(readTail(join(dir, 'link.jsonl'), 0)).toBeNull();
    expect(readTail(join(dir, 'missing.jsonl'), 0)).toBeNull();
  });
});
