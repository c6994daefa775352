/**
 * Lines that are not valid UTF-8 (a hand edit saved as Latin-1): reported by number on load, used
 * all the same, and never rewritten with U+FFFD — compaction keeps them byte for byte, or moves
 * unusable ones to .rejected byte for byte.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { formatSkipped } from '../../src/memory/format';
import { MemoryIndex } from '../../src/memory/index/memory-index';
import { memoryBudget } from '../../src/memory/background/budget';
import { loadStartupMemory } from '../../src/memory/background/startup';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const latin1 = (s: string) => Buffer.from(s, 'latin1'); // "café" as 63 61 66 E9: not UTF-8
const lines = (...parts: Buffer[]) => Buffer.concat(parts.flatMap((p) => [p, utf8('\n')]));

const ONE = utf8('{"id":1,"ts":"2026-05-13T19:01:01Z","kind":"fact","content":"plain"}');
const CAFE = latin1('{"id":2,"ts":"2026-05-13T19:02:00Z","kind":"pref","content":"coffee at the café"}');
const BROKEN = latin1('{"id":3,"ts":"2026-05-13T19:03:00Z","kind":"fact","content":"naïve'); // no closing: unusable
const FORGOTTEN = utf8('{"id":4,"ts":"2026-05-13T19:04:00Z","kind":"fact","content":"gone"}');
const TOMB = utf8('{"id":5,"ts":"2026-05-13T19:05:00Z","kind":"forget","target":4}');

function file(content: Buffer): string {
  const path = join(tmpDir(), 'memory.jsonl');
  writeFileSync(path, content);
  return path;
}

describe('invalid UTF-8 in memory.jsonl', () => {
  it('is reported by line number on load, and the item is used', () => {
    const store = MemoryStore.open(file(lines(ONE, CAFE, FORGOTTEN, TOMB)));
    expect(formatSkipped('memory.jsonl', store.skipped)).toEqual(['memory.jsonl:2: invalid UTF-8 (kept as is)']);
    expect(store.skipped[0]).toMatchObject({ line: 2, kept: true });
    expect(store.items().map((i) => [i.id, i.content])).toEqual([
      [2, 'coffee at the caf\ufffd'],
      [1, 'plain'],
    ]);
  });

  it('a real U+FFFD (valid UTF-8) is not reported', () => {
    const store = MemoryStore.open(
      file(lines(ONE, utf8('{"id":2,"ts":"2026-05-13T19:02:00Z","kind":"fact","content":"a \ufffd on purpose"}'))),
    );
    expect(store.skipped).toEqual([]);
    expect(store.items()[0]!.content).toBe('a \ufffd on purpose');
  });

  it('compaction keeps such an item byte for byte, and moves an unusable line to .rejected byte for byte', async () => {
    const path = file(lines(ONE, CAFE, BROKEN, FORGOTTEN, TOMB));
    const store = MemoryStore.open(path);
    expect(store.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, 'invalid UTF-8 (kept as is)'],
      [3, expect.stringMatching(/^not valid JSON or JSON5 \(.*\); invalid UTF-8$/)],
    ]);
    const r = await store.compact();
    expect(r).toMatchObject({ kept: 2, removed: 2, rejected: 1 });
    const after = readFileSync(path);
    expect(after.includes(CAFE)).toBe(true);
    expect(after.includes(utf8('\ufffd'))).toBe(false);
    const rejected = readFileSync(`${path}.rejected`);
    expect(rejected.includes(Buffer.concat([BROKEN, utf8('\n')]))).toBe(true);
    expect(rejected.includes(utf8('\ufffd'))).toBe(false);
    // and the kept line is still reported (at its new line number) until it is fixed
    const again = MemoryStore.open(path);
    expect(formatSkipped('memory.jsonl', again.skipped)).toEqual(['memory.jsonl:3: invalid UTF-8 (kept as is)']);
    expect(again.items().map((i) => i.id)).toEqual([2, 1]);
  });

  it('a pretty-printed item with invalid UTF-8 keeps all its lines', async () => {
    const pretty = Buffer.concat([
      utf8('{\n  id: 7,\n  ts: "2026-05-13T19:07:00Z",\n  kind: "fact",\n  content: "cr'),
      latin1('è'),
      utf8('me brûlée",\n}'),
    ]);
    const path = file(lines(ONE, pretty));
    const store = MemoryStore.open(path);
    expect(formatSkipped('memory.jsonl', store.skipped)).toEqual(['memory.jsonl:2-7: invalid UTF-8 (kept as is)']);
    await store.compact();
    expect(readFileSync(path).includes(pretty)).toBe(true);
  });

  it('a duplicate id on such a line goes to .rejected byte for byte', async () => {
    const dup = latin1('{"id":1,"ts":"2026-05-13T19:09:00Z","kind":"fact","content":"déjà vu"}');
    const path = file(lines(ONE, dup));
    const store = MemoryStore.open(path);
    expect(store.skipped.map((s) => s.reason)).toEqual(['duplicate id 1 (first used on line 1); invalid UTF-8']);
    await store.compact();
    expect(readFileSync(`${path}.rejected`).includes(dup)).toBe(true);
  });

  it('is found in what another process appends later too (the incremental read)', async () => {
    const path = file(lines(ONE));
    const store = MemoryStore.open(path);
    appendFileSync(path, lines(CAFE));
    expect(formatSkipped('memory.jsonl', store.reload().skipped)).toEqual(['memory.jsonl:2: invalid UTF-8 (kept as is)']);
    await store.add('fact', 'three');
    await store.compact();
    expect(readFileSync(path).includes(CAFE)).toBe(true);
  });

  it('start-up says so in one line, apart from unreadable lines', async () => {
    const path = file(lines(ONE, CAFE, BROKEN));
    const r = await loadStartupMemory(
      DEFAULT_CONFIG,
      memoryBudget(DEFAULT_CONFIG).background,
      new MemoryIndex(path),
      () => MemoryStore.open(path),
      '/',
    );
    expect(r.notices.map((n) => n.text)).toEqual([
      'memory.jsonl: 1 unreadable line skipped (see :memory inject)',
      'memory.jsonl: 1 line kept with a warning (see :memory inject)',
    ]);
    expect(r.injected.map((i) => i.id)).toEqual([2, 1]);
  });
});
