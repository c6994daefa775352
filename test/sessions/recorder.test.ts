/** The session recorder: one log per conversation, created with its first turn, resumed into a new log. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionRecorder } from '../../src/sessions/recorder';
import { tmpDir } from '../helpers/tmp';

function recorder(dir = join(tmpDir(), 'sessions')) {
  const warnings: string[] = [];
  return {
    r: new SessionRecorder(
      dir,
      () => ({ cwd: '/w', model: 'm' }),
      (t) => warnings.push(t),
    ),
    dir,
    warnings,
  };
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('SessionRecorder', () => {
  it('creates the log with the first turn, a new one after startNew, and saves a named copy', () => {
    const t = recorder();
    expect(t.r.path).toBeNull();
    expect(() => t.r.save('x')).toThrow('nothing to save yet — say something first');
    t.r.append({ role: 'user', content: 'hi' });
    const first = t.r.path!;
    expect(lines(first).map((l) => l.role ?? 'header')).toEqual(['header', 'user']);
    expect((lines(first)[0]!.meta as Record<string, unknown>).cwd).toBe('/w');
    t.r.startNew();
    t.r.append({ role: 'user', content: 'again' });
    expect(t.r.path).not.toBe(first);
    const saved = t.r.save('work');
    expect(lines(saved).at(-1)).toMatchObject({ role: 'user', content: 'again' });
    expect(readdirSync(t.dir).sort()).toHaveLength(3);
  });

  it('resume continues in a new log holding the old turns, and returns them as messages', () => {
    const t = recorder();
    t.r.append({ role: 'user', content: 'q' });
    t.r.append({ role: 'assistant', content: 'a' });
    t.r.save('old');
    t.r.startNew();
    const back = t.r.resume('old');
    expect(back.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ]);
    expect(
      lines(t.r.path!)
        .slice(1)
        .map((l) => l.content),
    ).toEqual(['q', 'a']);
    expect((lines(t.r.path!)[0]!.meta as Record<string, unknown>).resumedFrom).toBe('old');
    expect(recorder().r.resumeLatest()).toBeNull(); // aish -c then starts a new session
  });

  it('a log that cannot be written is reported, not thrown', () => {
    const file = join(tmpDir(), 'not-a-dir');
    writeFileSync(file, '');
    const t = recorder(join(file, 'sessions'));
    t.r.append({ role: 'user', content: 'hi' });
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/^session log not written: /);
  });
});
