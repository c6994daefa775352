/** Digest lines in session logs: loading, resuming, listing and searching. */
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendDigest, digestRecord, type SessionDigest } from '../../src/sessions/digest';
import { formatSessionLine } from '../../src/sessions/format';
import { turnsToMessages } from '../../src/sessions/replay';
import { searchSessions } from '../../src/sessions/search';
import { SessionLog } from '../../src/sessions/session-log';
import { listSessions, loadSession } from '../../src/sessions/sessions';
import { tmpDir } from '../helpers/tmp';

const HEADER = '{"meta":{"id":"x","started":"2026-05-13T19:00:00.000Z","version":1}}';
const turn = (role: string, content: unknown) => JSON.stringify({ ts: '2026-05-13T19:01:00.000Z', role, content });
const STATE = { goal: 'ship', current: 'half done', decisions: ['keep X'], openQuestions: [], nextSteps: ['test'], filesTouched: ['a.ts'] };
const d1: SessionDigest = { ts: '2026-05-13T19:02:00.000Z', title: 'First title', summary: 'First summary.', userTurns: 1 };
const d2: SessionDigest = { ts: '2026-05-13T19:03:00.000Z', title: 'Second title', summary: 'Second summary.', state: STATE, userTurns: 2 };
const line = (d: SessionDigest) => JSON.stringify(digestRecord(d));

function write(dir: string, name: string, lines: string[], mtime = 1000): string {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n', { mode: 0o600 });
  utimesSync(path, mtime, mtime);
  return path;
}

describe('loadSession with digest lines', () => {
  it('the latest valid digest wins; bad ones and unknown meta lines are warned with their line; turns are unchanged', () => {
    const dir = tmpDir();
    const plain = write(dir, 'plain', [HEADER, turn('user', 'q'), turn('assistant', 'a'), turn('user', 'q2')]);
    const path = write(dir, 's', [
      HEADER,
      turn('user', 'q'),
      line(d1),
      turn('assistant', 'a'),
      line(d2),
      '{"meta":{"digest":{"title":"no ts"}}}',
      '{"meta":{"digest":{"ts":"t","userTurns":-2}}}',
      '{"meta":{"something":"else"}}',
      turn('user', 'q2'),
    ]);
    const s = loadSession(path);
    expect(s.digest).toEqual(d2);
    expect(s.warnings).toEqual([
      { line: 6, reason: 'digest without ts' },
      { line: 7, reason: 'digest userTurns must be a whole number ≥ 0' },
      { line: 8, reason: 'unknown meta line' },
    ]);
    expect(s.turns).toEqual(loadSession(plain).turns);
    expect(turnsToMessages(s.turns)).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'q2' },
    ]);
    expect(loadSession(plain).digest).toBeUndefined();
  });
});

describe('SessionLog.resume', () => {
  it('writes the digest right after the header, and the new log loads with it', () => {
    const dir = tmpDir();
    const path = write(dir, 'proj', [HEADER, turn('user', 'q'), line(d1), turn('assistant', 'a'), line(d2)]);
    const log = SessionLog.resume(dir, loadSession(path), {});
    log.close();
    const lines = readFileSync(log.path, 'utf8').split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ meta: { resumedFrom: 'proj' } });
    expect(lines.slice(1)).toEqual([line(d2), turn('user', 'q'), turn('assistant', 'a'), '']);
    const again = loadSession(log.path);
    expect([again.digest, again.warnings, again.turns.length]).toEqual([d2, [], 2]);
    expect(listSessions(dir).find((s) => s.path === log.path)).toMatchObject({ title: 'Second title', turns: 1 });
  });

  it('writes no digest line when the old log has none', () => {
    const dir = tmpDir();
    const log = SessionLog.resume(dir, loadSession(write(dir, 'p', [HEADER, turn('user', 'q')])), {});
    log.close();
    expect(readFileSync(log.path, 'utf8').split('\n').slice(1)).toEqual([turn('user', 'q'), '']);
  });
});

describe('listSessions with digests', () => {
  it('shows the latest title and summary; digest lines are not turns', () => {
    const dir = tmpDir();
    write(dir, 'a', [HEADER, turn('user', 'first prompt'), line(d1), turn('assistant', 'x'), line(d2)], 2000);
    write(dir, 'b', [HEADER, turn('user', 'no digest here')], 1000);
    const [a, b] = listSessions(dir);
    expect(a).toMatchObject({ name: 'a', turns: 1, firstPrompt: 'first prompt', title: 'Second title', summary: 'Second summary.' });
    expect(b!.title).toBeUndefined();
    const now = new Date(2_000_000);
    expect(formatSessionLine(a!, now, '+')).toMatch(/ 1 turn {3}Second title$/);
    expect(formatSessionLine(b!, now, ' ')).toMatch(/ 1 turn {3}no digest here$/);
  });

  it('finds a digest past the first 64 KB; a later bad one does not hide it; counts stay right', () => {
    const dir = tmpDir();
    const big = turn('assistant', 'x'.repeat(1000));
    const lines = [HEADER, turn('user', 'first'), line(d1), ...Array.from({ length: 100 }, () => big), line(d2)];
    lines.push(...Array.from({ length: 50 }, () => big), '{"meta":{"digest":{"title":"no ts"}}}', '{"meta":{"other":1}}');
    const path = write(dir, 'big', lines);
    expect(readFileSync(path).length).toBeGreaterThan(128 * 1024);
    expect(listSessions(dir)[0]).toMatchObject({ turns: 1, firstPrompt: 'first', title: 'Second title', summary: 'Second summary.' });
    expect(loadSession(path).turns).toHaveLength(151);
  });

  it('finds a digest line whose start straddles a read boundary, at every offset', () => {
    const filler = turn('assistant', 'w'.repeat(900));
    for (let shift = 0; shift <= 20; shift++) {
      const dir = tmpDir();
      let text = [HEADER, turn('user', 'first'), ...Array.from({ length: 70 }, () => filler)].join('\n') + '\n';
      // The scan reads the tail in 64 KB pieces from the end of the last whole line in the head.
      const boundary = text.lastIndexOf('\n', 64 * 1024 - 1) + 1 + 64 * 1024;
      while (text.length < boundary - 2000) text += filler + '\n';
      const pad = boundary - shift - text.length - turn('user', '').length - 1;
      text += turn('user', 'p'.repeat(pad)) + '\n' + line(d2) + '\n' + filler + '\n';
      expect(text.indexOf(line(d2))).toBe(boundary - shift);
      writeFileSync(join(dir, 'edge.jsonl'), text);
      const turns = 2; // the user's prompts: 'first' and the padded one
      expect([shift, listSessions(dir)[0]]).toMatchObject([shift, { turns, title: 'Second title' }]);
    }
  });

  it('finds a digest appended at the very end of a 10 MB log, quickly', () => {
    const dir = tmpDir();
    const big = turn('assistant', 'y'.repeat(10_000)) + '\n';
    const path = write(dir, 'huge', [HEADER, turn('user', 'first')]);
    appendFileSync(path, big.repeat(1000));
    appendFileSync(path, '{"ts":"t","role":"user","content":"torn'); // appendDigest starts a fresh line
    appendDigest(path, d2);
    expect(readFileSync(path).length).toBeGreaterThan(10_000_000);
    const [info] = listSessions(dir);
    // the torn prompt, closed off by appendDigest's fresh line, counts as one
    expect(info).toMatchObject({ turns: 2, title: 'Second title', summary: 'Second summary.' });
  });

  it('lists a hundred 1 MB sessions with digests quickly', () => {
    const dir = tmpDir();
    const body = (turn('assistant', 'z'.repeat(1000)) + '\n').repeat(1000);
    for (let i = 0; i < 100; i++) {
      const path = write(dir, `s${i}`, [HEADER, turn('user', `q${i}`)]);
      appendFileSync(path, body + line({ ...d1, title: `title ${i}` }) + '\n');
    }
    const list = listSessions(dir);
    expect(list).toHaveLength(100);
    expect(new Set(list.map((s) => s.title))).toEqual(new Set(Array.from({ length: 100 }, (_, i) => `title ${i}`)));
    expect(list.every((s) => s.turns === 1 && s.answered)).toBe(true);
  });
});

describe('searchSessions with digests', () => {
  it('finds a word only the latest summary has, as a summary hit with a snippet from it', () => {
    const dir = tmpDir();
    write(dir, 'a', [HEADER, turn('user', 'hello'), line({ ...d1, summary: 'We chose zeppelin.' }), line(d2)]);
    write(dir, 'b', [HEADER, turn('user', 'hello'), line({ ...d1, title: 'Migrating to zeppelin', summary: 'Plans.' })]);
    const hits = searchSessions(dir, 'zeppelin');
    expect(hits).toEqual([
      { session: 'b', path: join(dir, 'b.jsonl'), ts: d1.ts, role: 'summary', snippet: 'Migrating to zeppelin', score: 1 },
    ]);
    const both = searchSessions(dir, 'second summary');
    expect(both.map((h) => [h.session, h.role, h.snippet, h.score])).toEqual([['a', 'summary', 'Second summary.', 2]]);
  });
});
