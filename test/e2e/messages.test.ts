/** Messages that say the right thing, in piped mode (issue 13): what reaches the model, and where errors go. */
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

describe('messages (piped mode)', () => {
  it('!seq 1 200000: the note to the model names one omitted count, in its header and its block', async () => {
    fake.server.enqueue({ text: 'many numbers' });
    const r = await runAish([], { home: tmpDir(), env: fake.env(), input: '!seq 1 200000\nhow many?\n' });
    expect(r.code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    const note = lastUserText(req!);
    const header = /, (\d+) characters omitted from the middle\)/.exec(note);
    const blocks = [...note.matchAll(/\[… (\d+) characters omitted …\]/g)].map((m) => m[1]);
    expect(header?.[1]).toBeDefined();
    expect(blocks).toEqual([header![1]]);
    // seq 1 200000 writes 1,288,895 characters; the model gets 16 KiB of them.
    const kept = note.length - note.indexOf('```');
    expect(Number(header![1]) + kept).toBeGreaterThan(1_288_895 - 200);
    expect(Number(header![1])).toBeLessThan(1_288_895);
    expect(note).toMatch(
      /^Output of a shell command I ran \(`seq 1 200000`, exit 0, \d+ characters omitted from the middle\):\n```\n1\n2\n/,
    );
    expect(note).toMatch(/\n200000\n```\n\nhow many\?$/);
  });

  it('!cd - goes back to the previous directory, and says so when there is none', async () => {
    const root = realpathSync(tmpDir());
    mkdirSync(join(root, 'sub'));
    const r = await runAish([], { home: tmpDir(), env: fake.env(), cwd: root, input: '!cd -\n!cd sub\n!cd -\n!pwd\n!cd -\n!pwd\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('aish: cd: -: no previous directory (aish has not changed directory yet)\n');
    expect(r.stdout).toBe(`${join(root, 'sub')}\n${root}\n${root}\n${join(root, 'sub')}\n${join(root, 'sub')}\n`);
  });

  it('-p points at what works from the shell, not at a :command', async () => {
    const home = tmpDir();
    const data = join(home, '.local', 'share', 'aish');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'memory.jsonl'), 'not json at all\n');
    const r = await runAish(['-p', 'hi'], { home, env: fake.env() });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('memory.jsonl: 1 unreadable line skipped (see aish memory list)');
    expect(r.stderr).not.toContain(':memory');
  });

  it('a config error names where config.example.ts is', async () => {
    const home = tmpDir();
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), 'export default { memroy: {} };\n');
    const r = await runAish(['-p', 'hi'], { home, env: fake.env() });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `unknown key memroy (did you mean memory?); see ${join(ROOT, 'config.example.ts')} (every key, with comments)`,
    );
  });
});
