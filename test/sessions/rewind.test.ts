/** Rewind lines in a session log: what replay, the listing and the recorder make of them. */
import { appendFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnsToMessages } from '../../src/sessions/replay';
import { SessionRecorder } from '../../src/sessions/recorder';
import { rewindTurns } from '../../src/sessions/rewind';
import { scanSession } from '../../src/sessions/scan';
import { loadSession } from '../../src/sessions/sessions';
import type { Turn } from '../../src/sessions/types';
import { Conversation } from '../../src/context/conversation';
import { tmpDir } from '../helpers/tmp';

const ts = '2026-01-01T00:00:00.000Z';
const u = (content: string, extra: Partial<Turn> = {}): Turn => ({ ts, role: 'user', content, ...extra });
const a = (content: string | null, extra: Partial<Turn> = {}): Turn => ({ ts, role: 'assistant', content, ...extra });

function writeLog(lines: object[]): string {
  const path = join(tmpDir(), 's.jsonl');
  writeFileSync(path, lines.map((l) => JSON.stringify(l) + '\n').join(''));
  return path;
}
const header = { meta: { id: 's', started: ts, version: 1 } };
const rewind = (exchanges: number) => ({ meta: { rewind: { ts, exchanges } } });

describe('rewindTurns', () => {
  it('takes back whole exchanges, tool calls and results included', () => {
    const call = { id: 'c1', type: 'function' as const, function: { name: 'run_command', arguments: '{}' } };
    const turns = [
      u('one'),
      a('1'),
      u('two'),
      a(null, { tool_calls: [call] }),
      { ts, role: 'tool' as const, content: 'ok', tool_call_id: 'c1' },
      a('2'),
    ];
    const r = rewindTurns(turns, 1);
    expect(r.exchanges).toBe(1);
    expect(r.kept.map((t) => t.content)).toEqual(['one', '1']);
    expect(r.removed[0]!.content).toBe('two');
  });

  it('does not count a failed prompt or memory extraction as an exchange', () => {
    const turns = [
      u('one'),
      a('1'),
      u('two'),
      a('2'),
      u('failed'),
      a(null, { meta: 'error' }),
      u('x', { meta: 'summarize' }),
      a('y', { meta: 'summarize' }),
    ];
    const r = rewindTurns(turns, 1);
    expect(r.kept.map((t) => t.content)).toEqual(['one', '1']);
  });

  it('asked for more than there is, takes back all there is and says how many', () => {
    const r = rewindTurns([u('one'), a('1')], 5);
    expect(r).toMatchObject({ exchanges: 1, kept: [] });
    expect(rewindTurns([], 1).exchanges).toBe(0);
  });
});

describe('a log with rewind lines', () => {
  it('replays without the exchanges taken back, and keeps what came after', () => {
    const path = writeLog([header, u('one'), a('1'), u('two'), a('2'), u('three'), a('3'), rewind(2), u('four'), a('4')]);
    const loaded = loadSession(path);
    expect(loaded.warnings).toEqual([]);
    expect(turnsToMessages(loaded.turns)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: '1' },
      { role: 'user', content: 'four' },
      { role: 'assistant', content: '4' },
    ]);
    // a second rewind applies to what the first left
    appendFileSync(path, JSON.stringify(rewind(1)) + '\n');
    expect(loadSession(path).turns.map((t) => t.content)).toEqual(['one', '1']);
    expect(scanSession(path, statSync(path).size).turns).toBe(1);
  });

  it('a malformed rewind line is warned about and changes nothing', () => {
    const path = writeLog([header, u('one'), a('1'), { meta: { rewind: { ts, exchanges: 0 } } }]);
    const loaded = loadSession(path);
    expect(loaded.turns).toHaveLength(2);
    expect(loaded.warnings).toEqual([{ line: 4, reason: 'rewind exchanges must be a whole number ≥ 1' }]);
  });
});

describe('SessionRecorder.rewind and fork', () => {
  const recorder = () =>
    new SessionRecorder(
      join(tmpDir(), 'sessions'),
      () => ({ cwd: '/w' }),
      (t) => expect.fail(t),
    );

  it('appends a rewind line, erases nothing, and returns the prompt that opened the first exchange', () => {
    const r = recorder();
    expect(r.rewind(1)).toEqual({ exchanges: 0, removed: [] });
    for (const q of ['one', 'two', 'three']) {
      r.append({ role: 'user', content: `${q} + file`, typed: q });
      r.append({ role: 'assistant', content: q.length.toString() });
    }
    const back = r.rewind(2);
    expect(back.exchanges).toBe(2);
    expect(back.removed[0]).toMatchObject({ content: 'two + file', typed: 'two' });
    const lines = readFileSync(r.path!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(8); // header, six turns, the rewind
    expect(lines.at(-1)).toEqual({ meta: { rewind: { ts: expect.any(String), exchanges: 2 } } });
    expect(loadSession(r.path!).turns.map((t) => t.typed)).toEqual(['one', undefined]);
  });

  it('fork saves the session so far under a name and goes on in a new log with the same turns', () => {
    const r = recorder();
    r.append({ role: 'user', content: 'one' });
    r.append({ role: 'assistant', content: '1' });
    const first = r.path!;
    const saved = r.fork('branch');
    expect(r.path).not.toBe(first);
    expect(r.path).not.toBe(saved);
    r.append({ role: 'user', content: 'two' });
    expect(loadSession(saved).turns.map((t) => t.content)).toEqual(['one', '1']);
    expect(loadSession(r.path!).turns.map((t) => t.content)).toEqual(['one', '1', 'two']);
    expect(loadSession(r.path!).meta?.resumedFrom).toBe('branch');
  });
});

describe('Conversation.rewind', () => {
  it('drops the last N exchanges from the messages', () => {
    const c = new Conversation(10_000);
    for (const q of ['one', 'two', 'three']) {
      c.add({ role: 'user', content: q });
      c.add({ role: 'assistant', content: q.toUpperCase() });
    }
    expect(c.rewind(2)).toBe(2);
    expect(c.messages).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'ONE' },
    ]);
    expect(c.rewind(5)).toBe(1);
    expect(c.messages).toEqual([]);
    expect(c.rewind(1)).toBe(0);
  });
});
