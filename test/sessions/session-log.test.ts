import { mkdirSync, readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/sessions/session-log';
import { loadSession } from '../../src/sessions/sessions';
import { AishError, UsageError } from '../../src/util/errors';
import { tmpDir } from '../helpers/tmp';

const NOW = new Date(2026, 4, 13, 19, 5, 9); // local time: ids are local
const ID = `20260513-190509-${process.pid}`;
const TORN = 'incomplete last line (an interrupted write?)';

describe('SessionLog', () => {
  it('writes the header and turns as exact lines, and reads them back', () => {
    const dir = join(tmpDir(), 'sessions');
    const log = SessionLog.create(dir, { cwd: '/w', model: 'fast' }, NOW);
    expect(log.id).toBe(ID);
    expect(log.path).toBe(join(dir, `${ID}.jsonl`));
    const t1 = log.append({ ts: 't1', role: 'user', content: 'hi' });
    // keys given out of order, plus one the log does not know: written in the fixed order, extra dropped
    const t2 = log.append({
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      content: null,
      role: 'assistant',
      ts: 't2',
      meta: 'interrupted',
      ...({ junk: 1 } as object),
    });
    log.append({ ts: 't3', role: 'tool', content: 'a\nb', tool_call_id: 'c1' });
    log.close();
    const started = NOW.toISOString();
    expect(readFileSync(log.path, 'utf8')).toBe(
      `{"meta":{"id":"${ID}","started":"${started}","version":1,"cwd":"/w","model":"fast"}}\n` +
        '{"ts":"t1","role":"user","content":"hi"}\n' +
        '{"ts":"t2","role":"assistant","content":null,"meta":"interrupted","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}\n' +
        '{"ts":"t3","role":"tool","content":"a\\nb","tool_call_id":"c1"}\n',
    );
    const loaded = loadSession(log.path);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.meta).toEqual({ id: ID, started, version: 1, cwd: '/w', model: 'fast' });
    expect(loaded.turns).toEqual([t1, t2, { ts: 't3', role: 'tool', content: 'a\nb', tool_call_id: 'c1' }]);
  });

  it('gives the header fields id, started and version precedence over caller meta', () => {
    const log = SessionLog.create(tmpDir(), { id: 'evil', version: 7 }, NOW);
    log.close();
    expect(loadSession(log.path).meta).toMatchObject({ id: ID, version: 1 });
  });

  it('stamps ts when none is given', () => {
    const log = SessionLog.create(tmpDir(), {}, NOW);
    const t = log.append({ role: 'user', content: 'x' });
    log.close();
    expect(Number.isNaN(Date.parse(t.ts))).toBe(false);
    expect(loadSession(log.path).turns).toEqual([t]);
  });

  it('creates the directory 0700 and the file 0600, even under a strict umask', () => {
    const dir = join(tmpDir(), 'sessions'); // one level: the umask would make intermediate dirs unwritable
    const old = process.umask(0o277); // masks the create modes down to 0400 and 0500
    try {
      const log = SessionLog.create(dir, {}, NOW);
      log.close();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(log.path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(old);
    }
  });

  it('has each turn in the file as soon as append returns', () => {
    const log = SessionLog.create(tmpDir(), {}, NOW);
    for (let i = 0; i < 3; i++) {
      log.append({ ts: `t${i}`, role: 'user', content: `turn ${i}` });
      const lines = readFileSync(log.path, 'utf8').split('\n');
      expect(lines.at(-2)).toBe(`{"ts":"t${i}","role":"user","content":"turn ${i}"}`);
      expect(lines.at(-1)).toBe(''); // whole line, newline included
    }
    log.close();
  });

  it('starts on a fresh line after a torn tail, keeping the torn bytes', () => {
    const dir = tmpDir();
    const path = join(dir, `${ID}.jsonl`);
    const good = '{"meta":{"id":"x","started":"s","version":1}}\n{"ts":"t1","role":"user","content":"one"}\n';
    writeFileSync(path, good + '{"ts":"t2","role":"assis');
    expect(loadSession(path).warnings).toEqual([{ line: 3, reason: TORN }]);

    const log = SessionLog.openExisting(path);
    log.append({ ts: 't3', role: 'user', content: 'three' });
    log.close();
    expect(readFileSync(path, 'utf8')).toBe(good + '{"ts":"t2","role":"assis\n{"ts":"t3","role":"user","content":"three"}\n');
    const loaded = loadSession(path);
    expect(loaded.turns.map((t) => t.content)).toEqual(['one', 'three']);
    expect(loaded.warnings).toEqual([{ line: 3, reason: 'not valid JSON' }]);
  });

  it('openExisting of a missing log is a one-line AishError', () => {
    expect(() => SessionLog.openExisting(join(tmpDir(), 'gone.jsonl'))).toThrow(new AishError('no session "gone"'));
  });

  it('never clobbers: logs created in the same second by one pid get -2, -3', () => {
    const dir = tmpDir();
    const a = SessionLog.create(dir, { model: 'a' }, NOW);
    a.append({ ts: 't', role: 'user', content: 'first log' });
    const b = SessionLog.create(dir, { model: 'b' }, NOW);
    const c = SessionLog.create(dir, { model: 'c' }, NOW);
    for (const l of [a, b, c]) l.close();
    expect([a.id, b.id, c.id]).toEqual([ID, `${ID}-2`, `${ID}-3`]);
    expect(readdirSync(dir).sort()).toEqual([`${ID}-2.jsonl`, `${ID}-3.jsonl`, `${ID}.jsonl`]);
    expect(loadSession(a.path).turns.map((t) => t.content)).toEqual(['first log']);
    expect(loadSession(b.path).meta?.model).toBe('b');
  });

  it('ids sort chronologically as strings', () => {
    const dir = tmpDir();
    const times = [new Date(2026, 0, 2, 3, 4, 5), new Date(2026, 0, 2, 13, 4, 5), new Date(2026, 10, 1, 0, 0, 0)];
    const ids = times.map((t) => {
      const l = SessionLog.create(dir, {}, t);
      l.close();
      return l.id;
    });
    expect([...ids].sort()).toEqual(ids);
  });

  it('refuses to write after close', () => {
    const log = SessionLog.create(tmpDir(), {}, NOW);
    log.close();
    log.close(); // idempotent
    expect(() => log.append({ role: 'user', content: 'x' })).toThrow('session log is closed');
  });

  it('reports a log it cannot create as a one-line AishError', () => {
    const notDir = join(tmpDir(), 'file');
    writeFileSync(notDir, '');
    expect(() => SessionLog.create(notDir, {}, NOW)).toThrow(AishError);
    expect(() => SessionLog.create(notDir, {}, NOW)).toThrow(/^cannot create a session log in .*: a part of the path is not a directory$/);
  });
});

describe('saveAs', () => {
  it('writes an identical copy, 0600, and replaces an older save of that name', () => {
    const dir = tmpDir();
    const log = SessionLog.create(dir, { cwd: '/w' }, NOW);
    log.append({ ts: 't1', role: 'user', content: 'hi' });
    const saved = log.saveAs('my-work_1.0');
    expect(saved).toBe(join(dir, 'my-work_1.0.jsonl'));
    expect(readFileSync(saved)).toEqual(readFileSync(log.path));
    expect(statSync(saved).mode & 0o777).toBe(0o600);

    log.append({ ts: 't2', role: 'assistant', content: 'hello' });
    log.saveAs('my-work_1.0');
    expect(readFileSync(saved, 'utf8')).toBe(readFileSync(log.path, 'utf8'));
    expect(loadSession(saved).turns).toHaveLength(2);
    // the log itself is still the one being appended to
    log.append({ ts: 't3', role: 'user', content: 'more' });
    log.close();
    expect(loadSession(saved).turns).toHaveLength(2);
    expect(loadSession(log.path).turns).toHaveLength(3);
  });

  it.each(['a/b', '..', '.', '.hidden', '', 'with space', '../x', 'x\ny', 'a'.repeat(101)])('refuses %j', (name) => {
    const dir = tmpDir();
    const log = SessionLog.create(dir, {}, NOW);
    expect(() => log.saveAs(name)).toThrow(UsageError);
    log.close();
    expect(readdirSync(dir)).toEqual([`${ID}.jsonl`]);
  });

  it('refuses its own id and anything that looks like an automatic id', () => {
    const dir = tmpDir();
    const log = SessionLog.create(dir, {}, NOW);
    log.append({ ts: 't', role: 'user', content: 'keep me' });
    const before = readFileSync(log.path, 'utf8');
    expect(() => log.saveAs(log.id)).toThrow(/is the current session log/);
    expect(() => log.saveAs('20200101-000000-42')).toThrow(/looks like an automatic session id/);
    log.close();
    expect(readFileSync(log.path, 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual([`${ID}.jsonl`]);
  });
});

describe('saveAs over a name that is taken', () => {
  const at = (h: number) => new Date(2026, 0, 1, h, 0, 0);

  it('refuses to replace another conversation (one line, nothing changed); --force replaces it', () => {
    const dir = tmpDir();
    const monday = SessionLog.create(dir, {}, at(9));
    monday.append({ ts: '2026-01-01T09:00:01Z', role: 'user', content: 'the monday plan' });
    monday.append({ ts: '2026-01-01T09:00:02Z', role: 'assistant', content: 'ok' });
    const saved = monday.saveAs('work');
    monday.close();
    const before = readFileSync(saved, 'utf8');
    const tuesday = SessionLog.create(dir, {}, at(10));
    tuesday.append({ ts: '2026-01-02T09:00:01Z', role: 'user', content: 'something else' });
    expect(() => tuesday.saveAs('work', { command: ':fork' })).toThrow(
      new UsageError(
        '"work" holds another conversation (1 prompt, last 2026-01-01) — pick another name, or :fork --force work to replace it',
      ),
    );
    expect(readFileSync(saved, 'utf8')).toBe(before);
    tuesday.saveAs('work', { force: true });
    expect(loadSession(saved).turns.map((t) => t.content)).toEqual(['something else']);
    tuesday.close();
  });

  it('replaces an earlier state of this conversation: the same log (rewound too), a resumed one, a longer one, an empty one', () => {
    const dir = tmpDir();
    const log = SessionLog.create(dir, {}, at(9));
    log.append({ ts: 'a1', role: 'user', content: 'q1' });
    log.append({ ts: 'a2', role: 'assistant', content: 'r1' });
    log.saveAs('w');
    log.appendRewind(1);
    log.append({ ts: 'a3', role: 'user', content: 'q1 again' });
    expect(() => log.saveAs('w')).not.toThrow(); // the same log, its turns rewound

    // resumed from w: saving back to w continues it
    const resumed = SessionLog.resume(dir, loadSession(join(dir, 'w.jsonl')), {}, at(10));
    resumed.append({ ts: 'a4', role: 'user', content: 'q2' });
    expect(() => resumed.saveAs('w')).not.toThrow();
    // resumed from a fork of w: w's turns begin this one's, so it is still this conversation
    resumed.saveAs('branch');
    const second = SessionLog.resume(dir, loadSession(join(dir, 'branch.jsonl')), {}, at(11));
    second.append({ ts: 'a5', role: 'user', content: 'q3' });
    expect(() => second.saveAs('w')).not.toThrow();
    expect(loadSession(join(dir, 'w.jsonl')).turns.map((t) => t.content)).toEqual(['q1 again', 'q2', 'q3']);

    // rewound, quit, continued from its log (not by name): saving back to w is still this conversation
    const third = SessionLog.resume(dir, loadSession(second.path), {}, at(12));
    third.appendRewind(1);
    third.append({ ts: 'a6', role: 'user', content: 'q3 again' });
    second.saveAs('w');
    expect(() => third.saveAs('w')).not.toThrow();
    third.close();

    writeFileSync(join(dir, 'empty.jsonl'), '');
    expect(() => second.saveAs('empty')).not.toThrow();
    mkdirSync(join(dir, 'odd.jsonl'));
    expect(() => second.saveAs('odd')).toThrow(/"odd" exists and cannot be read — pick another name, or :save --force odd/);
    for (const l of [log, resumed, second]) l.close();
  });
});

describe('resume', () => {
  it('starts a new self-contained log that names the old one', () => {
    const dir = tmpDir();
    const old = SessionLog.create(dir, {}, new Date(2026, 0, 1, 10, 0, 0));
    old.append({ ts: 't1', role: 'user', content: 'q' });
    old.append({ ts: 't2', role: 'assistant', content: 'a', meta: 'interrupted' });
    old.saveAs('proj');
    old.close();
    const oldText = readFileSync(old.path, 'utf8');

    const loaded = loadSession(join(dir, 'proj.jsonl'));
    const log = SessionLog.resume(dir, loaded, { model: 'deep' }, NOW);
    log.append({ ts: 't3', role: 'user', content: 'next' });
    log.close();
    expect(log.id).toBe(ID);
    const again = loadSession(log.path);
    expect(again.meta).toMatchObject({ id: ID, resumedFrom: 'proj', model: 'deep' });
    expect(again.turns).toEqual([...loaded.turns, { ts: 't3', role: 'user', content: 'next' }]);
    expect(readFileSync(old.path, 'utf8')).toBe(oldText);
  });

  it('copies only the valid turns of a torn log, and writes whole lines', () => {
    const dir = tmpDir();
    const path = join(dir, 'crashed.jsonl');
    writeFileSync(path, '{"ts":"t1","role":"user","content":"one"}\n{"ts":"t2","role":"assis');
    const log = SessionLog.resume(dir, loadSession(path), {}, NOW);
    log.close();
    const lines = readFileSync(log.path, 'utf8').split('\n');
    expect(lines.slice(1)).toEqual(['{"ts":"t1","role":"user","content":"one"}', '']);
    expect(JSON.parse(lines[0]!)).toMatchObject({ meta: { resumedFrom: 'crashed' } });
  });
});
