/** :help, the lists and the status line at 40 columns (issue 13, defect 5): rows hang-wrap, nothing is cut. */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

function start(home: string): PtySession {
  const s = spawnAish([], { home, env: fake.env(), cols: 40, rows: 40 });
  sessions.push(s);
  return s;
}

/** The screen's lines from the one that includes `first` to the one that includes `last`. */
function block(s: PtySession, first: string, last: string, from = 0): string[] {
  const lines = s.text().slice(from).split(/\r?\n/);
  const a = lines.findIndex((l) => l.includes(first));
  const b = lines.findIndex((l, i) => i >= a && l.includes(last));
  return lines.slice(a, b + 1);
}

describe('40 columns', () => {
  it(':help fits, with wrapped descriptions indented under their command', async () => {
    const s = start(tmpDir());
    await s.waitFor('mem ');
    const mark = s.text().length;
    s.write(':help\r');
    await s.waitFor('quits)', { from: mark });
    const rows = block(s, ':help [COMMAND]', 'quits)', mark);
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      expect(r.length, r).toBeLessThanOrEqual(40);
      // A row starts at a command (or !CMD, TEXT); its continuation lines hang by 4.
      expect(r, r).toMatch(/^(:|!|TEXT| {4}\S)/);
    }
    // No padding to the longest synopsis: the short ones are followed by their text at once.
    expect(rows).toContain(':quit  leave aish (also :q, :exit)');
    // Subcommands are separated by spaces, so the row wraps between names, never inside one.
    expect(rows.some((r) => r.startsWith(':memory add | list | plan |'))).toBe(true);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it(':memory list fits with hanging rows, and the status line keeps mem and ctx', async () => {
    const s = start(tmpDir());
    await s.waitFor('mem ');
    s.write(':remember the deploy script lives in scripts/deploy.sh and needs the staging credentials\r');
    await s.waitFor('memory: added 1');
    const mark = s.text().length;
    s.write(':memory list\r');
    await s.waitFor('recalled when relevant', { from: mark });
    const rows = block(s, 'ID  AGE', 'recalled when relevant', mark);
    for (const r of rows) expect(r.length, r).toBeLessThanOrEqual(40);
    const item = rows.findIndex((r) => r.includes('the deploy'));
    expect(rows[item + 1]).toMatch(/^ {4,}\S/);
    expect(rows.join(' ').replace(/\s+/g, ' ')).toContain('the deploy script lives in scripts/deploy.sh and needs the staging credentials');
    // The status line: mem and ctx are there (the path went first).
    await s.waitFor(/mem 1 │ ctx ~?[\d.]+k?\/8\.0k/, { from: mark }); // drawn with the frame after the list
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it(':help memory, :memory plan, :sessions, :tools and :checkpoints fit, continuation lines indented', async () => {
    const home = tmpDir();
    const s = start(home);
    await s.waitFor('mem ');
    s.write(':remember the deploy script lives in scripts/deploy.sh and needs the staging credentials\r');
    await s.waitFor('memory: added 1');
    // A session with a long first prompt, so :sessions has a row to wrap.
    s.write('please explain how the deploy script works for the staging environment\r');
    await s.waitFor('echo: please');
    for (const [cmd, last] of [
      [':help memory', 'where memory.jsonl is'],
      [':memory plan deploy script', 'left out'],
      [':sessions', 'continue one with :resume NAME'],
      [':tools', 'MCP servers configured'],
      [':checkpoints', 'before each step that may write'],
    ] as const) {
      const mark = s.text().length;
      s.write(`${cmd}\r`);
      await s.waitFor(new RegExp(last.split(' ').join('\\s+')), { from: mark });
      await new Promise((r) => setTimeout(r, 100)); // the rest of the frame
      const lines = s.text().slice(mark).split(/\r?\n/);
      for (const l of lines) expect(l.length, `${cmd}: ${l}`).toBeLessThanOrEqual(40);
      // Some row was too long for 40 columns and hangs under its first line.
      if (cmd !== ':checkpoints')
        expect(
          lines.some((l) => /^ {4,}\S/.test(l)),
          cmd,
        ).toBe(true);
    }
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
