/**
 * Lines no hand edit would write, by the million: each is reported once, with the reason JSON5
 * itself would give, and reading them stays linear (a line of `{` once cost a JSON5 attempt per
 * line after it, up to 200, and two exceptions with stacks each).
 */
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { parseLines } from '../../src/memory/log/parse';
import { MemoryState } from '../../src/memory/log/state';

/** The store's protocol: an object still open at the end is held back and read with the rest. */
function read(text: string): MemoryState {
  const s = new MemoryState();
  const held = s.ingest(text, 1);
  if (held !== null) s.ingestProvisional(text.slice(held), text.slice(0, held).split('\n').length, true);
  return s;
}

const json5Reason = (t: string): string => {
  try {
    JSON5.parse(t);
    return 'parsed';
  } catch (err) {
    return `not valid JSON or JSON5 (${(err as Error).message.replace(/^JSON5: /, '')})`;
  }
};

describe('lines that cannot be records', () => {
  it('a line JSON5 cannot even start is refused unparsed, with JSON5’s own words', () => {
    for (const c of ['x', '}', ']', ':', '\\', '\0', '\u0007', 'é', '😀', '\ud800', 'Zebra']) {
      const [e] = parseLines(`${c}\n`, 1, true);
      expect(e, JSON.stringify(c)).toMatchObject({ type: 'bad', line: 1 });
      const want = json5Reason(c).replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
      expect((e as { reason: string }).reason, JSON.stringify(c)).toBe(want);
    }
  });

  it('200,000 bad lines of each kind: every one reported once, in order', () => {
    for (const line of ['x', '{', '{"a":}', '[']) {
      const s = read(`${line}\n`.repeat(200_000));
      expect(s.skipped.length, line).toBe(200_000);
      expect(s.skipped[199_999]!.line).toBe(200_000);
      expect(s.active()).toEqual([]);
    }
  });

  it('a line of 50 MB that is not JSON: one bad line, JSON5 not tried; the items around it are read', () => {
    const item = (id: number) => JSON.stringify({ id, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: `item ${id}` });
    const s = new MemoryState();
    s.ingest(`${item(1)}\n{${'x'.repeat(50_000_000)}\n${item(2)}\n`, 1);
    expect(s.active().map((it) => it.id)).toEqual([2, 1]);
    expect(s.skipped).toEqual([{ line: 2, reason: 'not valid JSON or JSON5 (not JSON, and too long for JSON5 (50000001 characters))' }]);
  });

  it('a pretty-printed object is still read after a few broken ones', () => {
    const pretty = ['{', '  "id": 5,', '  "ts": "2026-01-01T00:00:00Z",', '  "kind": "fact",', '  "content": "spread out"', '}'];
    const s = read(['{', '{ "id": 4,', ...pretty].join('\n') + '\n');
    expect(s.active().map((it) => it.content)).toEqual(['spread out']);
    expect(s.skipped.map((l) => l.line)).toEqual([1, 2]);
  });
});
