import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/sessions/session-log';
import { latestSession, listSessions, loadSession, resolveSession, validateSessionName } from '../../src/sessions/sessions';
import { AishError, UsageError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

const HEADER = '{"meta":{"id":"x","started":"2026-05-13T19:00:00.000Z","version":1}}';
const turn = (role: string, content: unknown, extra = {}) => JSON.stringify({ ts: 't', role, content, ...extra });

/** A session file with the given lines and mtime (seconds since the epoch). */
function write(dir: string, name: string, lines: string[], mtime: number, trailingNewline = true): string {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join('\n') + (trailingNewline ? '\n' : ''));
  utimesSync(path, mtime, mtime);
  return path;
}

describe('validateSessionName', () => {
  it.each(['proj', 'a.b_c-d', 'x'.repeat(100), '20260513-190509-42', 'v1.2'])('accepts %j', (n) => {
    expect(validateSessionName(n)).toBe(n);
  });

  it.each(['a/b', '..', '.', '.hidden', '', 'with space', 'x'.repeat(101), 'a\\b', 'é', 'a\nb'])('refuses %j', (n) => {
    expect(() => validateSessionName(n)).toThrow(UsageError);
  });

  it('explains in one line', () => {
    expect(() => validateSessionName('../x')).toThrow(`invalid session name "../x" — use letters, digits, '.', '_' or '-' (no paths)`);
    expect(() => validateSessionName('a\nb')).toThrow(/^invalid session name "a\\nb" — [^\n]*$/);
  });
});

describe('loadSession', () => {
  it('skips bad lines and reports each with its number and why', () => {
    const dir = tmpDir();
    const path = write(
      dir,
      's',
      [
        HEADER,
        turn('user', 'ok 1'),
        'not json',
        turn('wizard', 'x'),
        '',
        '[1,2]',
        JSON.stringify({ role: 'user', content: 'no ts' }),
        turn('user', 42),
        turn('user', null),
        turn('tool', 'result'),
        turn('assistant', null, { tool_calls: [{ id: 1 }] }),
        turn('assistant', null, { tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }),
        turn('tool', 'result', { tool_call_id: 'c' }),
        turn('user', 'recalled', { recall: [3, 'x'] }),
        '{"ts":"t","role":"user","content":"cut',
      ],
      1000,
      false,
    );
    const s = loadSession(path);
    expect(s.meta).toEqual({ id: 'x', started: '2026-05-13T19:00:00.000Z', version: 1 });
    expect(s.turns.map((t) => [t.role, t.content])).toEqual([
      ['user', 'ok 1'],
      ['assistant', null],
      ['tool', 'result'],
    ]);
    expect(s.warnings).toEqual([
      { line: 3, reason: 'not valid JSON' },
      { line: 4, reason: 'unknown role "wizard"' },
      { line: 6, reason: 'not a JSON object' },
      { line: 7, reason: 'missing ts' },
      { line: 8, reason: 'content must be a string for role user' },
      { line: 9, reason: 'content must be a string for role user' },
      { line: 10, reason: 'tool turn without tool_call_id' },
      { line: 11, reason: 'malformed tool_calls' },
      { line: 14, reason: 'recall must be a list of memory ids' },
      { line: 15, reason: 'incomplete last line (an interrupted write?)' },
    ]);
  });

  it('takes a log without a header (meta null) and a complete last line without newline', () => {
    const path = write(tmpDir(), 's', [turn('user', 'a'), turn('assistant', 'b')], 1000, false);
    const s = loadSession(path);
    expect(s.meta).toBeNull();
    expect(s.warnings).toEqual([]);
    expect(s.turns.map((t) => t.content)).toEqual(['a', 'b']);
  });

  it('reads an empty file as an empty session', () => {
    const path = write(tmpDir(), 'empty', [], 1000, false);
    expect(loadSession(path)).toEqual({ path, meta: null, turns: [], warnings: [] });
  });

  it('throws a one-line AishError only when the file cannot be read', () => {
    expect(() => loadSession(join(tmpDir(), 'nope.jsonl'))).toThrow(new AishError('no session "nope"'));
    const dir = join(tmpDir(), 'adir.jsonl');
    mkdirSync(dir);
    expect(() => loadSession(dir)).toThrow(/^cannot read session "adir": EISDIR$/);
  });
});

describe('listSessions', () => {
  it('lists newest first with the named flag, turn count and first prompt', () => {
    const dir = tmpDir();
    write(dir, '20260101-100000-7', [HEADER, turn('user', 'old question'), turn('assistant', 'a')], 1000);
    write(dir, 'saved', [HEADER, turn('user', '  multi\nline\tprompt\u001b[31m  ')], 3000);
    write(dir, '20260102-100000-7', [HEADER, turn('user', 'ls', { meta: 'shell' }), turn('user', 'é'.repeat(100))], 2000);
    write(dir, 'headerless', [turn('assistant', 'only me'), 'garbage', '{"ts":"t","role":"us'], 500, false);
    writeFileSync(join(dir, 'notes.txt'), 'not a session');
    writeFileSync(join(dir, 'bad name.jsonl'), HEADER + '\n');
    writeFileSync(join(dir, '.hidden.jsonl'), HEADER + '\n');
    mkdirSync(join(dir, 'sub.jsonl'));

    const list = listSessions(dir);
    // Turns are the user's prompts, as resume counts them; `answered` when some got an answer.
    expect(list.map((s) => [s.name, s.named, s.turns, s.firstPrompt, s.answered])).toEqual([
      ['saved', true, 1, 'multi line prompt[31m', false],
      ['20260102-100000-7', false, 2, `${'é'.repeat(79)}…`, false],
      ['20260101-100000-7', false, 1, 'old question', true],
      ['headerless', true, 0, undefined, true],
    ]);
    expect(list[0]!.path).toBe(join(dir, 'saved.jsonl'));
    expect(list[0]!.mtimeMs).toBe(3_000_000);
  });

  it('counts turns past the first 64 KB with a line scan', () => {
    const dir = tmpDir();
    const big = 'x'.repeat(1000);
    const lines = [HEADER, turn('user', 'first'), ...Array.from({ length: 300 }, () => turn('assistant', big))];
    lines.push('', turn('user', 'last')); // a blank line past the head is not a turn
    write(dir, 'big', lines, 1000);
    const [info] = listSessions(dir);
    expect(info).toMatchObject({ name: 'big', turns: 2, firstPrompt: 'first', answered: true });
  });

  it('past 64 KB, tells prompts and answers by their first bytes; a log of failed calls is not answered', () => {
    const dir = tmpDir();
    const big = 'x'.repeat(1000);
    const fail = (i: number) => [
      turn('user', `q${i} ${big}`),
      JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', role: 'assistant', content: null, meta: 'error' }),
    ];
    write(dir, 'failed', [HEADER, ...Array.from({ length: 100 }, (_, i) => fail(i)).flat()], 1000);
    expect(listSessions(dir)[0]).toMatchObject({ turns: 100, answered: false });
    write(
      dir,
      'late',
      [HEADER, ...Array.from({ length: 100 }, (_, i) => fail(i)).flat(), turn('user', 'again'), turn('assistant', 'at last')],
      2000,
    );
    expect(listSessions(dir)[0]).toMatchObject({ name: 'late', turns: 101, answered: true });
  });

  it("marks one-shot logs and shows the user's own words, not aish's wrapper", () => {
    const dir = tmpDir();
    write(
      dir,
      'one',
      [
        JSON.stringify({ meta: { id: 'one', started: 't', version: 1, oneshot: true } }),
        JSON.stringify({
          ts: 't',
          role: 'user',
          content: 'Output of a shell command I ran (`ls`):\n```\na\n```\n\nwhat is this?',
          typed: 'what is this?',
        }),
        turn('assistant', 'a'),
      ],
      1000,
    );
    write(
      dir,
      'nor',
      [
        HEADER,
        JSON.stringify({
          ts: 't',
          role: 'user',
          content: 'Goal: list files\nWork on it now, step by step.',
          meta: 'norris',
          typed: 'list files',
        }),
        turn('assistant', 'done'),
      ],
      2000,
    );
    expect(listSessions(dir).map((s) => [s.name, s.firstPrompt, s.oneshot ?? false])).toEqual([
      ['nor', 'norris: list files', false],
      ['one', 'what is this?', true],
    ]);
  });

  it('is empty for a missing directory', () => {
    expect(listSessions(join(tmpDir(), 'none'))).toEqual([]);
  });
});

describe('resolveSession', () => {
  it('returns the path of an existing session', () => {
    const dir = tmpDir();
    const path = write(dir, 'proj', [HEADER], 1000);
    expect(resolveSession(dir, 'proj')).toBe(path);
  });

  it('suggests the closest name when there is none', () => {
    const dir = tmpDir();
    write(dir, 'project', [HEADER], 1000);
    write(dir, 'other', [HEADER], 1000);
    expect(() => resolveSession(dir, 'projetc')).toThrow(new AishError('no session "projetc" (did you mean project?) — see :sessions'));
    expect(() => resolveSession(dir, 'zzzzzzzz')).toThrow(new AishError('no session "zzzzzzzz" — see :sessions'));
    expect(() => resolveSession(join(dir, 'missing'), 'x')).toThrow('no session "x" — see :sessions');
  });

  it('suggests the newest of several ids sharing a prefix', () => {
    const dir = tmpDir();
    write(dir, '20260513-090000-1', [HEADER], 1000);
    write(dir, '20260513-190000-1', [HEADER], 2000);
    expect(() => resolveSession(dir, '20260513')).toThrow('(did you mean 20260513-190000-1?)');
  });

  it('validates the name before touching the disk', () => {
    expect(() => resolveSession(tmpDir(), '../etc/passwd')).toThrow(UsageError);
  });
});

describe('latestSession', () => {
  it('skips the current log and sessions with nothing answered', () => {
    const dir = tmpDir();
    const older = write(dir, 'older', [HEADER, turn('user', 'q'), turn('assistant', 'a')], 1000);
    write(dir, 'empty', [HEADER], 3000);
    write(dir, 'unanswered', [HEADER, turn('user', 'q')], 3500);
    const current = SessionLog.create(dir, {});
    current.append({ role: 'user', content: 'now' });
    current.append({ role: 'assistant', content: 'yes' });
    current.close();
    utimesSync(current.path, 4000, 4000);
    expect(latestSession(dir)?.path).toBe(current.path);
    expect(latestSession(dir, current.path)?.path).toBe(older);
    expect(latestSession(join(dir, 'none'))).toBeUndefined();
  });
});
