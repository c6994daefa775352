/**
 * Every file aish reads line by line reports its bad lines the same way (util/line-warnings.ts):
 * the first 20 named, the rest summed up in one line — memory.jsonl, a session log, the inbox and
 * a team file. Each reader is real; only the files are made by hand.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inboxWarnings } from '../../src/commands/memory-review';
import { Inbox } from '../../src/memory/review/inbox';
import { readTeamDir, teamDir } from '../../src/memory/team/team-file';
import { SessionRecorder } from '../../src/sessions/recorder';
import { lineWarnings } from '../../src/util/line-warnings';
import { tmpDir } from '../helpers/tmp';

const BAD = 1000;
const garbage = (n: number) => Array.from({ length: n }, (_, i) => `not json ${i}`).join('\n') + '\n';

describe('warnings for bad lines', () => {
  it('names the first 20 and sums up the rest in one line (with a hint when there is one)', () => {
    const w = Array.from({ length: 25 }, (_, i) => ({ line: i + 1, reason: 'not valid JSON' }));
    const lines = lineWarnings('f.jsonl', w, { suffix: ' (skipped)', hint: 'fix them' });
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('f.jsonl:1: not valid JSON (skipped)');
    expect(lines[20]).toBe('f.jsonl: 5 more lines skipped (lines 21–25); fix them');
    expect(lineWarnings('f.jsonl', w.slice(0, 20))).toHaveLength(20);
  });

  it('a session log of a thousand bad lines: 21 warnings on resume', () => {
    const dir = join(tmpDir(), 'sessions');
    const first = new SessionRecorder(
      dir,
      () => ({ cwd: '/w', model: 'm' }),
      () => {},
    );
    first.append({ role: 'user', content: 'hello' });
    first.append({ role: 'assistant', content: 'hi' });
    first.close();
    appendFileSync(first.path!, garbage(BAD));
    const name = basename(first.path!);
    const r = new SessionRecorder(
      dir,
      () => ({ cwd: '/w', model: 'm' }),
      () => {},
    );
    const resumed = r.resumeLatest()!;
    expect(resumed.messages.length).toBeGreaterThan(0);
    expect(resumed.warnings).toHaveLength(21);
    expect(resumed.warnings[0]).toBe(`${name}:4: not valid JSON`);
    expect(resumed.warnings[20]).toBe(`${name}: ${BAD - 20} more lines skipped (lines 24–${BAD + 3})`);
    r.close();
  });

  it('the inbox: 21 warnings', () => {
    const memPath = join(tmpDir(), 'memory.jsonl');
    writeFileSync(join(memPath, '..', 'inbox.jsonl'), garbage(BAD));
    const lines = inboxWarnings(Inbox.open(memPath));
    expect(lines).toHaveLength(21);
    expect(lines[0]).toBe('inbox.jsonl:1: not valid JSON (skipped)');
    expect(lines[20]).toBe(`inbox.jsonl: ${BAD - 20} more lines skipped (lines 21–${BAD})`);
  });

  it('a team file: 21 warnings for it, whatever the other files say', () => {
    const root = tmpDir();
    mkdirSync(teamDir(root), { recursive: true });
    writeFileSync(join(teamDir(root), 'alice.jsonl'), garbage(BAD));
    writeFileSync(join(teamDir(root), 'bob.jsonl'), garbage(3));
    const r = readTeamDir(root);
    expect(r.warnings).toHaveLength(21 + 3);
    expect(r.warnings[0]).toBe('.aish/memory/alice.jsonl:1: not valid JSON (skipped)');
    expect(r.warnings[20]).toBe(`.aish/memory/alice.jsonl: ${BAD - 20} more lines skipped (lines 21–${BAD})`);
    expect(r.warnings[21]).toBe('.aish/memory/bob.jsonl:1: not valid JSON (skipped)');
  });
});
