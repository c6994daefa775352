import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDigest, checkDigest, digestRecord, renderWorkingState, type SessionDigest } from '../../src/sessions/digest';
import { SessionLog } from '../../src/sessions/session-log';
import { loadSession } from '../../src/sessions/sessions';
import { AishError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

const STATE = { goal: 'g', current: 'c', decisions: ['d'], openQuestions: [], nextSteps: ['n1', 'n2'], filesTouched: ['src/a.ts'] };

describe('checkDigest', () => {
  it('keeps a well-formed digest, fields in order, unknown ones dropped', () => {
    const d = checkDigest({ junk: 1, userTurns: 3, state: { ...STATE, extra: 'x' }, summary: 'S.', title: 'T', ts: 't' });
    expect(d).toEqual({ ts: 't', title: 'T', summary: 'S.', state: STATE, userTurns: 3 });
    expect(Object.keys(d as object)).toEqual(['ts', 'title', 'summary', 'state', 'userTurns']);
    expect(Object.keys((d as SessionDigest).state!)).toEqual(Object.keys(STATE));
  });

  it('cuts the title to one line of at most 80 characters without control characters', () => {
    const d = checkDigest({ ts: 't', title: ` a\nb\u001b[31m\u0007 ${'x'.repeat(100)}`, summary: 'two\nlines\u0007' }) as SessionDigest;
    expect(d.title).toBe(`a b[31m ${'x'.repeat(71)}…`);
    expect(Array.from(d.title!)).toHaveLength(80);
    expect(d.summary).toBe('two\nlines');
    expect(checkDigest({ ts: 't', title: '\u0007 ', summary: ' ' })).toEqual({ ts: 't' });
  });

  it('coerces the state: missing fields empty, scalars to text, one string to a list', () => {
    expect(checkDigest({ ts: 't', state: { goal: 42, decisions: 'one', nextSteps: ['a', '', 7, true, ' b\u0000 '] } })).toEqual({
      ts: 't',
      state: { goal: '42', current: '', decisions: ['one'], openQuestions: [], nextSteps: ['a', '7', 'true', 'b'], filesTouched: [] },
    });
  });

  it.each([
    [null, 'digest is not a JSON object'],
    [[1], 'digest is not a JSON object'],
    [{ title: 'x' }, 'digest without ts'],
    [{ ts: 5 }, 'digest without ts'],
    [{ ts: 't', title: 3 }, 'digest title must be a string'],
    [{ ts: 't', summary: {} }, 'digest summary must be a string'],
    [{ ts: 't', state: 'busy' }, 'digest state is not a JSON object'],
    [{ ts: 't', state: { goal: {} } }, 'digest state.goal must be a string'],
    [{ ts: 't', state: { filesTouched: [{}] } }, 'digest state.filesTouched must be a list of strings'],
    [{ ts: 't', userTurns: -1 }, 'digest userTurns must be a whole number ≥ 0'],
    [{ ts: 't', userTurns: 1.5 }, 'digest userTurns must be a whole number ≥ 0'],
  ])('refuses %j: %s', (v, reason) => {
    expect(checkDigest(v)).toBe(reason);
  });
});

describe('digestRecord', () => {
  it('wraps the digest as the meta line, in the fixed field order', () => {
    const d = { userTurns: 2, title: 'T', ts: 't' } as SessionDigest;
    expect(JSON.stringify(digestRecord(d))).toBe('{"meta":{"digest":{"ts":"t","title":"T","userTurns":2}}}');
  });
});

describe('appendDigest', () => {
  const D: SessionDigest = { ts: '2026-05-13T19:00:00.000Z', title: 'Fix the build', summary: 'We fixed it.', state: STATE, userTurns: 1 };

  it('appends exactly one line that loadSession reads back; the mode stays 0600', () => {
    const log = SessionLog.create(tmpDir(), {});
    log.append({ role: 'user', content: 'hi' });
    log.close();
    const before = readFileSync(log.path, 'utf8');
    appendDigest(log.path, D);
    const after = readFileSync(log.path, 'utf8');
    expect(after).toBe(`${before}${JSON.stringify(digestRecord(D))}\n`);
    expect(statSync(log.path).mode & 0o777).toBe(0o600);
    const loaded = loadSession(log.path);
    expect(loaded.digest).toEqual(D);
    expect(loaded.turns.map((t) => t.content)).toEqual(['hi']);
    expect(loaded.warnings).toEqual([]);
  });

  it('starts on a fresh line after a torn last line', () => {
    const path = join(tmpDir(), 'torn.jsonl');
    writeFileSync(path, '{"meta":{"id":"torn","started":"s","version":1}}\n{"ts":"t","role":"user","content":"cut', { mode: 0o600 });
    appendDigest(path, D);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('{"ts":"t","role":"user","content":"cut');
    expect(lines[2]).toBe(JSON.stringify(digestRecord(D)));
    expect(lines[3]).toBe('');
    const loaded = loadSession(path);
    expect(loaded.digest).toEqual(D);
    expect(loaded.warnings).toEqual([{ line: 2, reason: 'not valid JSON' }]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('never creates the file, refuses an empty log and an unusable digest, in one line', () => {
    const dir = tmpDir();
    const missing = join(dir, 'gone.jsonl');
    expect(() => appendDigest(missing, D)).toThrow(new AishError('no session "gone"'));
    expect(() => statSync(missing)).toThrow();
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    expect(() => appendDigest(empty, D)).toThrow(new AishError('cannot add a digest to session "empty": the log has no header'));
    expect(readFileSync(empty, 'utf8')).toBe('');
    writeFileSync(empty, '{"meta":{}}\n');
    expect(() => appendDigest(empty, { ts: '' })).toThrow(new AishError('cannot add a digest to session "empty": digest without ts'));
    expect(readFileSync(empty, 'utf8')).toBe('{"meta":{}}\n');
  });

  it('reports a log it cannot open as an AishError', () => {
    const path = join(tmpDir(), 'dir.jsonl');
    mkdirSync(path);
    expect(() => appendDigest(path, D)).toThrow(AishError);
    expect(() => appendDigest(path, D)).toThrow(/^cannot open session log .*dir\.jsonl: it is a directory$/);
  });
});

describe('renderWorkingState', () => {
  it('renders goal, state and the non-empty lists as Markdown', () => {
    expect(renderWorkingState({ ...STATE, decisions: ['use X', 'keep\nY'] })).toBe(
      [
        '**Goal:** g',
        '**Current state:** c',
        '',
        '**Decisions:**',
        '- use X',
        '- keep Y',
        '',
        '**Next steps:**',
        '- n1',
        '- n2',
        '',
        '**Files touched:**',
        '- src/a.ts',
      ].join('\n'),
    );
  });

  it('leaves out empty sections', () => {
    const empty = { goal: '', current: ' ', decisions: [], openQuestions: ['why?'], nextSteps: [''], filesTouched: [] };
    expect(renderWorkingState(empty)).toBe('**Open questions:**\n- why?');
    expect(renderWorkingState({ ...empty, openQuestions: [] })).toBe('');
  });
});
