import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHitLine } from '../../src/sessions/format';
import { searchSessions, snippet } from '../../src/sessions/search';
import { SessionLog } from '../../src/sessions/session-log';
import { UsageError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

type T = { role: 'system' | 'user' | 'assistant' | 'tool'; content: string | null; meta?: string; tool_call_id?: string };

/** A real log written by the real writer, its turns dated from `day` (2026-05-DD) on, a minute apart. */
function session(dir: string, day: number, turns: T[]): SessionLog {
  const start = new Date(`2026-05-${String(day).padStart(2, '0')}T10:00:00Z`);
  const log = SessionLog.create(dir, { cwd: '/tmp' }, start);
  turns.forEach((t, i) => log.append({ ...t, ts: new Date(start.getTime() + (i + 1) * 60_000).toISOString() }));
  log.close();
  return log;
}

/** Four sessions, oldest first; the decision about the database is in the first, three sessions ago. */
function history(dir: string) {
  const old = session(dir, 1, [
    { role: 'system', content: 'You are aish. The staging database is mentioned here but this is the system prompt.' },
    { role: 'user', content: 'Which database should the billing service use?' },
    { role: 'assistant', content: 'We decided: PostgreSQL 16 for billing, with nightly pg_dump backups.' },
  ]);
  const mid = session(dir, 5, [
    { role: 'user', content: 'ls the repo' },
    { role: 'assistant', content: null },
    { role: 'tool', content: 'README.md\nsrc\nbackups.sh', tool_call_id: 'c1' },
  ]);
  const recent = session(dir, 9, [
    { role: 'user', content: 'how do I rotate the logs?' },
    { role: 'assistant', content: 'fact: backups run nightly', meta: 'summarize' },
  ]);
  const latest = session(dir, 12, [{ role: 'user', content: 'what is the weather' }]);
  return { old, mid, recent, latest };
}

describe('searchSessions', () => {
  it('finds a word from a turn three sessions ago, with its session, time, role and snippet', () => {
    const dir = tmpDir();
    const { old } = history(dir);
    const hits = searchSessions(dir, 'postgresql');
    expect(hits).toEqual([
      {
        session: old.id,
        path: old.path,
        ts: '2026-05-01T10:03:00.000Z', // the system turn was the first
        role: 'assistant',
        snippet: 'We decided: PostgreSQL 16 for billing, with nightly pg_dump backups.',
        score: 1,
      },
    ]);
  });

  it('folds plurals both ways, skips system turns, and keeps summarize answers and tool output', () => {
    const dir = tmpDir();
    const { old, mid, recent } = history(dir);
    // "databases" finds "database"; the system prompt that also says it is not a hit
    expect(searchSessions(dir, 'databases').map((h) => [h.session, h.role])).toEqual([[old.id, 'user']]);
    // "backup" finds "backups", in a tool turn and a summarize answer too, newest first
    expect(searchSessions(dir, 'backup').map((h) => [h.session, h.role])).toEqual([
      [recent.id, 'assistant'],
      [mid.id, 'tool'],
      [old.id, 'assistant'],
    ]);
  });

  it('ranks by distinct terms matched, then newer first, and honours the limit', () => {
    const dir = tmpDir();
    const { old, recent, mid } = history(dir);
    const hits = searchSessions(dir, 'nightly backups billing');
    expect(hits.map((h) => [h.session, h.score])).toEqual([
      [old.id, 3], // the oldest turn, but it has all three words
      [recent.id, 2],
      [mid.id, 1],
      [old.id, 1], // "billing" in the question, older than the tool output
    ]);
    expect(hits[3]!.role).toBe('user');
    expect(searchSessions(dir, 'nightly backups billing', { limit: 2 }).map((h) => h.score)).toEqual([3, 2]);
  });

  it('skips torn, hand-broken and malformed lines and still finds the good ones', () => {
    const dir = tmpDir();
    const log = session(dir, 3, [{ role: 'user', content: 'the kafka cluster is called zebra' }]);
    appendFileSync(log.path, 'this is not json kafka\n{"ts":"x","role":"wizard","content":"kafka"}\n\n[1,2]\n');
    session(dir, 4, [{ role: 'assistant', content: 'kafka again' }]);
    // a crash mid-write: the last line is cut off
    const torn = session(dir, 5, [{ role: 'assistant', content: 'kafka before the crash' }]);
    appendFileSync(torn.path, '{"ts":"2026-05-05T11:00:00Z","role":"user","content":"kafka aft');
    writeFileSync(join(dir, 'garbage.jsonl'), '\u0000\u0001 kafka \n{{{{');
    writeFileSync(join(dir, 'not-a-log.txt'), '{"ts":"2026-05-05T11:00:00Z","role":"user","content":"kafka"}\n');
    expect(searchSessions(dir, 'kafka').map((h) => h.snippet)).toEqual([
      'kafka before the crash',
      'kafka again',
      'the kafka cluster is called zebra',
    ]);
  });

  it('refuses an empty query or one of only stop words, in one line', () => {
    const dir = tmpDir();
    history(dir);
    expect(() => searchSessions(dir, 'the of and what')).toThrow(UsageError);
    expect(() => searchSessions(dir, 'the of and what')).toThrow(/^nothing to search for in "the of and what" — [^\n]+$/);
    expect(() => searchSessions(dir, '   ')).toThrow(UsageError);
    // a stop word next to a real one is just skipped
    expect(searchSessions(dir, 'what weather')).toHaveLength(1);
  });

  it('a missing directory has no hits; a word nobody said has none either', () => {
    expect(searchSessions(join(tmpDir(), 'nope'), 'anything')).toEqual([]);
    const dir = tmpDir();
    history(dir);
    expect(searchSessions(dir, 'kubernetes')).toEqual([]);
  });

  it('reads a log much larger than its read chunk, with a match on both sides of a chunk boundary', () => {
    const dir = tmpDir();
    const filler = Array.from({ length: 300 }, (_, i) => ({ role: 'user' as const, content: `line ${i} ${'x'.repeat(500)}` }));
    session(dir, 2, [...filler, { role: 'assistant', content: 'the answer is quux' }, ...filler, { role: 'user', content: 'quux again' }]);
    expect(searchSessions(dir, 'quux').map((h) => h.snippet)).toEqual(['quux again', 'the answer is quux']);
  });
});

describe('snippet', () => {
  const wanted = new Set(['database']);

  it('is one line of about 120 characters around the first match, the matching word whole, no controls', () => {
    const text = `${'lorem ipsum '.repeat(40)}\n\u001b[31mthe\tDatabases\u0007 live on host zebra\r\n${'dolor sit '.repeat(40)}`;
    const s = snippet(text, wanted);
    expect(s).toContain('the Databases live on host zebra');
    expect(s).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(s).not.toContain('[31m');
    expect(Array.from(s).length).toBeLessThanOrEqual(122);
    expect(Array.from(s).length).toBeGreaterThan(100);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
  });

  it('a match near the start gives the room to what follows, and a short text is whole', () => {
    expect(snippet('Database: postgres', wanted)).toBe('Database: postgres');
    const s = snippet(`database ${'word '.repeat(100)}`, wanted);
    expect(s.startsWith('database word')).toBe(true);
    expect(Array.from(s).length).toBeLessThanOrEqual(121);
  });

  it('a hit line shows name, age, role and snippet', () => {
    const line = formatHitLine(
      { session: 'proj', path: '/x', ts: '2026-05-01T10:00:00Z', role: 'tool', snippet: 'the database', score: 1 },
      new Date('2026-05-04T10:00:00Z'),
    );
    expect(line).toBe(`${'proj'.padEnd(24)}   3d  tool       the database`);
  });
});
