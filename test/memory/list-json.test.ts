import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonArray, type JsonSink } from '../../src/frontends/cli/memory-json';
import { loadMemory } from '../../src/memory/store';
import { FIXTURES } from '../helpers/paths';

/** A stdout stand-in that says "full" every other write and drains a tick later. */
class SlowSink extends EventEmitter implements JsonSink {
  text = '';
  writes = 0;
  destroyed = false;
  write(chunk: string): boolean {
    this.text += chunk;
    this.writes++;
    if (this.writes % 2) return true;
    setImmediate(() => this.emit('drain'));
    return false;
  }
}

const item = (id: number) => ({
  id,
  ts: '2025-01-01T00:00:00.000Z',
  kind: 'fact',
  content: `item "${id}"\n\u2028`,
  ...(id % 3 === 0 && { tags: ['a', 'b'], scope: '/home/me' }),
  ...(id % 7 === 0 && { extra: { nested: [1, { x: null }] } }),
});

describe('writeJsonArray (aish memory list --json)', () => {
  it('writes exactly JSON.stringify(items, null, 2) and a newline, whatever the count', async () => {
    for (const n of [0, 1, 2, 1023, 1024, 1025, 2500]) {
      const items = Array.from({ length: n }, (_, i) => item(i + 1));
      const sink = new SlowSink();
      await writeJsonArray(items, sink);
      // U+2028 spelled \u2028: the same JSON, nothing a terminal would take for a line break.
      expect(sink.text, `${n} items`).toBe(JSON.stringify(items, null, 2).replace(/\u2028/g, '\\u2028') + '\n');
      expect(JSON.parse(sink.text)).toEqual(items);
    }
  });

  it('waits for drain between chunks instead of piling them up', async () => {
    const sink = new SlowSink();
    const done = writeJsonArray(
      Array.from({ length: 5000 }, (_, i) => item(i)),
      sink,
    );
    expect(sink.writes).toBe(2); // the second write said "full": nothing more until drain
    await done;
    expect(sink.writes).toBeGreaterThan(2);
  });

  it('stops when the reader is gone', async () => {
    const sink = new SlowSink();
    sink.destroyed = true;
    await writeJsonArray([item(1)], sink);
    expect(sink.text).toBe('');
  });

  it('matches the one-string output for a hand-edited file (tombstones, pins, multi-line objects)', async () => {
    const items = loadMemory(join(FIXTURES, 'hand-edited.jsonl')).items;
    const sink = new SlowSink();
    await writeJsonArray(items, sink);
    expect(JSON.parse(sink.text)).toEqual(items);
    expect(sink.text).toBe(JSON.stringify(items, null, 2) + '\n');
  });
});
