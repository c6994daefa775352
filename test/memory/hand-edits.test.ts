import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLines } from '../../src/memory/log/parse';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { FIXTURES } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

describe('hand-edited memory.jsonl', () => {
  const fixture = join(FIXTURES, 'hand-edited.jsonl');

  it('loads every usable line and reports each bad one by number', () => {
    const m = loadMemory(fixture);
    expect(m.items.map((i) => i.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 14, 15]);
    expect(m.items.find((i) => i.id === 6)!.content).toBe('pretty-printed over several lines');
    expect(m.items.find((i) => i.id === 15)!.content).toBe('no final newline');

    const reported = m.skipped.map((s) => [s.line, s.reason]);
    expect(reported.map(([l]) => l)).toEqual([14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26]);
    const reason = (line: number) => m.skipped.find((s) => s.line === line)!.reason;
    expect(reason(14)).toMatch(/plain decimal integers \(not hex, NaN or Infinity\)/);
    expect(reason(15)).toMatch(/plain decimal integers/);
    expect(reason(16)).toMatch(/unknown kind "note"/);
    expect(reason(17)).toMatch(/duplicate id 2 \(first used on line 4\)/);
    expect(reason(18)).toMatch(/content must be non-empty/);
    expect(reason(19)).toMatch(/ts must be an ISO-8601 time/);
    expect(reason(20)).toMatch(/tags must be a list of strings/);
    expect(reason(21)).toMatch(/not a JSON object/);
    expect(reason(22)).toMatch(/forget needs a target id/);
    expect(reason(23)).toMatch(/id must be a positive integer/);
    expect(reason(24)).toMatch(/not valid JSON or JSON5/);
    expect(reason(26)).toMatch(/not valid JSON or JSON5/);
    // reasons are printable one-liners even for binary garbage
    for (const [, r] of reported) expect(String(r)).not.toMatch(/[\u0000-\u001f\u007f]/);
  });

  it('keeps ids seen in broken lines reserved and appends on a fresh line', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    copyFileSync(fixture, path);
    const store = MemoryStore.open(path);
    // line 15 holds id 0x10 (16): refused as an item, but the id stays reserved so fixing that line
    // later cannot collide with an id handed out now
    expect(store.maxId).toBe(16);
    const item = await store.add('fact', 'added after hand edits');
    expect(item.id).toBe(17);
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const last2 = text.trimEnd().split('\n').slice(-2);
    expect((JSON.parse(last2[0]!) as { id: number }).id).toBe(15); // the hand edit without newline is intact
    expect((JSON.parse(last2[1]!) as { id: number }).id).toBe(17);
    expect(loadMemory(path).items.map((i) => i.id)).toContain(15);
  });

  it('reports a torn last line and starts the next append on a fresh line', async () => {
    const path = join(tmpDir(), 'memory.jsonl');
    writeFileSync(path, '{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"ok"}\n{"id":2,"ts":"2026-05-13T19:0');
    const store = MemoryStore.open(path);
    expect(store.skipped).toEqual([{ line: 2, reason: 'incomplete last line (an interrupted write?)' }]);
    const item = await store.add('fact', 'next');
    // the torn line showed id 2, so it stays reserved
    expect(item.id).toBe(3);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[1]).toBe('{"id":2,"ts":"2026-05-13T19:0');
    expect(JSON.parse(lines[2]!)).toMatchObject({ id: 3, content: 'next' });
    const m = loadMemory(path);
    expect(m.items.map((i) => i.id)).toEqual([3, 1]);
    expect(m.skipped.map((s) => s.line)).toEqual([2]);
  });

  it('never throws on random bytes', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let round = 0; round < 300; round++) {
      const len = Math.floor(rnd() * 400);
      const bytes = Buffer.alloc(len);
      for (let i = 0; i < len; i++) bytes[i] = rnd() < 0.2 ? 0x0a : Math.floor(rnd() * 256);
      const text = bytes.toString('utf8');
      expect(() => parseLines(text, 1, text.endsWith('\n'))).not.toThrow();
    }
  });

  it('does not glue a torn line to the next valid one', () => {
    const entries = parseLines(
      '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"x\n{"id":2,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"y"}\n',
      1,
      true,
    );
    expect(entries.map((e) => [e.type, e.line])).toEqual([
      ['bad', 1],
      ['item', 2],
    ]);
  });
});
