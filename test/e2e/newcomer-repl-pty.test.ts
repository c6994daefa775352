/**
 * What a newcomer met in the REPL (issue 32), in a real pseudo-terminal through `node bin/aish.cjs`:
 * the cursor restore at exit, ↑ in a multi-line draft, a paste in vi's normal mode, a line-per-line
 * answer, Tab's list, a long sync failure on the status line, an interrupted code block on resume.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { ptySessions, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());
const ESC = '\x1b';
const UP = '\x1b[A';
const paste = (text: string) => `\x1b[200~${text.replace(/\n/g, '\r')}\x1b[201~`;

/** Each key in a read of its own, as a person types (a lone Esc needs a pause to be a key). */
async function type(s: PtySession, keys: string[]): Promise<void> {
  for (const k of keys) {
    s.write(k);
    await new Promise((r) => setTimeout(r, k === ESC ? 120 : 40));
  }
}

async function sent(s: PtySession, keys: string[], n: number): Promise<string> {
  await type(s, keys);
  s.write('\r');
  return lastUserText((await fake.server.waitForRequests(n))[n - 1]!);
}

/** The input box's rows on screen: from the last prompt row up to the status line. */
function inputRows(s: PtySession): string[] {
  const lines = s.screen.screenLines();
  const status = lines.findLastIndex((l) => l.includes('fast (gpt-4o-mini)'));
  const prompt = lines.slice(0, status).findLastIndex((l) => /^(\[[IN]\] )?›( |$)/.test(l));
  return lines.slice(prompt, status);
}

describe('the newcomer rows in a pseudo-terminal', () => {
  it('exit: the cursor is shown by the real sequence, and no `^[[?25h` text is left before the shell prompt', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    const mark = s.raw().length;
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
    const after = s.raw().slice(mark);
    expect(after).not.toContain('^[[?25h');
    expect(after).not.toContain('^[');
    expect(after.endsWith('\x1b[?25h') || after.lastIndexOf('\x1b[?25h') > after.lastIndexOf('\x1b[?25l')).toBe(true);
    expect(s.screen.allLines().join('\n')).not.toContain('^[');
  });

  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'killed by %s: bracketed paste is turned off and the cursor shown, so the shell after it gets plain pastes',
    async (sig) => {
      const s = start(tmpDir());
      await s.waitFor('fast (gpt-4o-mini)');
      expect(s.raw()).toContain('\x1b[?2004h');
      const mark = s.raw().length;
      s.pty.kill(sig);
      await s.exited;
      const after = s.raw().slice(mark);
      expect(after).toContain('\x1b[?2004l');
      expect(after).toContain('\x1b[?25h');
      expect(s.screen.allLines().join('\n')).not.toContain('^[');
    },
  );

  it('multi-line input: ↑ reaches an empty first line (the cursor drawn where typing goes), then history; also after Ctrl-U', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    expect(await sent(s, ['older prompt'], 1)).toBe('older prompt');
    await s.waitFor('echo: older prompt');
    // pasted `\nfoo line\nbar line`, ↑ ↑: the cursor on the empty first line, and Q goes there
    await type(s, [paste('\nfoo line\nbar line'), UP, UP, 'Q']);
    await waitUntil(() => inputRows(s)[0] === '› Q', 'Q on the first line of the input', { detail: () => inputRows(s).join('\n') });
    expect(inputRows(s).slice(1, 3)).toEqual(['… foo line', '… bar line']);
    // one more ↑ from the first line: the history entry
    await type(s, [UP]);
    await waitUntil(() => inputRows(s)[0] === '› older prompt', 'the history entry after ↑ from the first line', {
      detail: () => inputRows(s).join('\n'),
    });
    expect(await sent(s, [], 2)).toBe('older prompt');
    await s.waitFor(/echo: older prompt[^]*echo: older prompt/);
    // an Alt-Enter draft whose first line Ctrl-U empties: ↑ is history, not the line below
    await type(s, ['first', '\x1b\r', 'second', UP, '\x05', '\x15']);
    await waitUntil(() => inputRows(s)[0] === '›', 'line 1 emptied', { detail: () => inputRows(s).join('\n') });
    expect(await sent(s, ['Z'], 3)).toBe('Z\nsecond');
    await s.waitFor('echo: Z');
    await type(s, ['first', '\x1b\r', 'second', UP, '\x05', '\x15', UP]);
    await waitUntil(() => inputRows(s)[0] === '› Z', 'the newest history entry', { detail: () => inputRows(s).join('\n') });
    await type(s, ['\x03']); // Ctrl-C clears the line, then Ctrl-D quits
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('vi keys: a paste in normal mode is text, not commands', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':set keys vi\r');
    await s.waitFor('keys vi');
    await type(s, ['abc', ESC]);
    await s.waitFor('[N]');
    expect(await sent(s, [paste('ddxx paste here')], 1)).toBe('abcddxx paste here');
    await s.waitFor('echo: abcddxx paste here');
    // a multi-line paste into an empty line in normal mode, too
    const mark = s.text().length;
    await type(s, ['x', ESC]);
    await s.waitFor('[N] › x', { from: mark });
    await type(s, ['x']);
    expect(await sent(s, [paste('dd\n0iq')], 2)).toBe('dd\n0iq');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('an answer streamed one line at a time keeps its lines when it ends', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${String(i + 1).padStart(3, '0')}`);
    fake.server.enqueue({ text: lines.join('\n'), chunkSize: 9, intervalMs: 2 });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('count to 120\r');
    // The finished answer replaces the live tail (`… N more lines above`) in the scrollback.
    await waitUntil(
      () =>
        s.screen.logicalLines().some((l) => l.startsWith('Line 001')) &&
        !s.screen.screenLines().some((l) => l.includes('more lines above')),
      'the finished answer in the scrollback',
      { detail: () => s.screen.screenLines().join('\n') },
    );
    await s.settle();
    const shown = s.screen.logicalLines();
    // each line once, on a line of its own, in order: not `Line 001 Line 002 …` in one paragraph
    expect(shown.filter((l) => l.includes('Line 0'))).toEqual(lines.filter((l) => l.startsWith('Line 0')));
    expect(shown.slice(shown.indexOf('Line 100'), shown.indexOf('Line 120') + 1)).toEqual(lines.slice(99));
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Tab lists the words the line may go on with, not the whole line each time', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    await type(s, [':memory ', '\t']);
    await waitUntil(() => s.screen.screenLines().some((l) => /^add {2}\S/.test(l) || / {2}add {2}/.test(l)), 'the candidates', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    expect(s.screen.screenLines().join('\n')).not.toMatch(/:memory add {2}:memory/);
    s.write('\x15\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('Tab goes on one word at a time (`:set keys ` → vi, emacs) and lists a directory by its entries', async () => {
    const project = tmpDir();
    mkdirSync(join(project, 'src', 'config'), { recursive: true });
    mkdirSync(join(project, 'src', 'context'), { recursive: true });
    const s = start(tmpDir(), [], { cwd: project });
    await s.waitFor('fast (gpt-4o-mini)');
    await type(s, [':set keys ', '\t']);
    await waitUntil(() => s.screen.screenLines().some((l) => /^emacs {2}vi$/.test(l)), 'vi and emacs listed', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    expect(inputRows(s)[0]).toBe('› :set keys');
    await type(s, ['\x15', 'see @src/', '\t']);
    await waitUntil(() => s.screen.screenLines().some((l) => /^config\/ {2}context\/$/.test(l)), 'the entries of src/', {
      detail: () => s.screen.screenLines().join('\n'),
    });
    expect(s.screen.screenLines().join('\n')).not.toContain('@src/config/');
    s.write('\x15\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('a long `sync failed: …` is cut on the status line; the preset and the directory stay', async () => {
    const home = tmpDir();
    const config = join(home, 'config.ts');
    const remote = join(home, 'gone', 'a-remote-with-a-long-name-'.repeat(4), 'memory.git');
    writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(remote)}, name: "desk" } } };\n`);
    const s = start(home, ['--config', config, '--data-dir', join(home, 'data')], { cols: 100 });
    await s.waitFor('sync failed', { timeoutMs: 20_000 });
    await s.settle(300);
    const status = s.screen.screenLines().findLast((l) => l.includes('sync failed'))!;
    expect(status).toMatch(/^fast \(gpt-4o-mini\) │ \S+ │ mem \d+ │ ctx \S+ │ sync failed: .*…$/);
    expect([...status].length).toBeLessThanOrEqual(100);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });

  it('resume: an answer interrupted inside a code block shows `[interrupted by the user]` after the block, not in it', async () => {
    const home = tmpDir();
    const code = Array.from({ length: 200 }, (_, i) => `const v${i} = ${i};`).join('\n');
    fake.server.enqueue({ text: `Here is the code:\n\n\`\`\`js\n${code}\n\`\`\`\n`, chunkSize: 8, intervalMs: 30 });
    const first = start(home, [], { rows: 40 });
    await first.waitFor('fast (gpt-4o-mini)');
    first.write('write some code\r');
    await first.waitFor('const v3 = 3;');
    first.write('\x03');
    await first.waitFor('[interrupted]');
    first.write('\x04');
    expect(await first.exitCode()).toBe(0);

    const s = start(home, ['-c'], { rows: 40 });
    await s.waitFor(/resumed \S+: 1 turn/);
    const lines = s.screen.allLines();
    const marker = lines.findIndex((l) => l.includes('[interrupted by the user]'));
    expect(marker, lines.join('\n')).toBeGreaterThan(0);
    expect(lines[marker]).toBe('[interrupted by the user]'); // not indented as code
    const above = lines.slice(0, marker).filter((l) => l.trim() !== '');
    expect(above.at(-1)).toBe('```'); // the block closed before it
    expect(lines.slice(0, marker).some((l) => l.startsWith('```js'))).toBe(true);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
