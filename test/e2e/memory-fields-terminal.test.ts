/**
 * Every field of a memory item that a listing shows (tags, keys, scope, source, a teammate's tags)
 * is cleaned like its content: a colour sequence hand-written into memory.jsonl (black on black,
 * which the output boundary lets through as styling) never reaches the terminal, piped or in a PTY.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const HIDE = '\u001b[30;40m';
const SHOW = '\u001b[0m';
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

/** A home whose memory holds one item with a hostile tag, key, scope and source. */
function hostileHome(): { home: string; project: string } {
  const home = tmpDir();
  const project = join(home, `proj${HIDE}x${SHOW}`);
  mkdirSync(project, { recursive: true });
  const dir = join(home, '.local', 'share', 'aish');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const item = {
    id: 1,
    ts: '2026-01-01T00:00:00Z',
    kind: 'fact',
    content: 'deploys go through the staging cluster',
    tags: [`${HIDE}secret tag${SHOW}`],
    keys: [`${HIDE}key${SHOW}`],
    source: `import:${HIDE}x.jsonl${SHOW}`,
    scope: project,
  };
  writeFileSync(join(dir, 'memory.jsonl'), JSON.stringify(item) + '\n', { mode: 0o600 });
  return { home, project };
}

describe('memory fields in the terminal', () => {
  it('aish memory list / plan / search, piped: no ESC from a tag, key or scope', async () => {
    const { home, project } = hostileHome();
    for (const args of [
      ['memory', 'list'],
      ['memory', 'plan', 'staging cluster'],
      ['memory', 'search', 'staging'],
    ]) {
      const r = await runAish(args, { home, cwd: project });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('staging cluster');
      expect(r.stdout).not.toContain('\u001b');
      expect(r.stderr).not.toContain('\u001b');
    }
    const list = await runAish(['memory', 'list'], { home, cwd: project });
    expect(list.stdout).toContain('secret tag');
  });

  it('aish memory list in a terminal: the tag is shown, its colours are not', async () => {
    const { home, project } = hostileHome();
    const s = spawnAish(['memory', 'list'], { home, cwd: project });
    sessions.push(s);
    expect(await s.exitCode()).toBe(0);
    expect(s.text()).toContain('secret tag');
    expect(s.raw()).not.toContain(HIDE);
    expect(s.raw()).not.toContain('[30;40m');
  });

  it("a teammate's tag in .aish/memory is cleaned too", async () => {
    const home = tmpDir();
    const project = join(home, 'proj');
    mkdirSync(join(project, '.aish', 'memory'), { recursive: true });
    writeFileSync(join(project, '.aish', 'project-id'), 'team-fields\n');
    writeFileSync(
      join(project, '.aish', 'memory', 'bob.jsonl'),
      JSON.stringify({ uid: 'u1', ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'team item here', tags: [`${HIDE}hid${SHOW}`] }) +
        '\n',
    );
    const r = await runAish(['memory', 'list'], { home, cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('team item here');
    expect(r.stdout).not.toContain('\u001b');
  });
});
