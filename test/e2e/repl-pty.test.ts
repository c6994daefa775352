/** The real Ink REPL in a real pseudo-terminal against the fake OpenAI server. */
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { BIN } from '../helpers/paths';
import { spawnAish, stripAnsi, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();

const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const sessions: PtySession[] = [];
function start(home: string, args: string[] = []): PtySession {
  const s = spawnAish(args, { home, env: env() });
  sessions.push(s);
  return s;
}
afterAll(() => sessions.forEach((s) => s.kill()));

async function exitWithCtrlD(s: PtySession): Promise<number> {
  s.write('\x04');
  return s.exitCode();
}

describe('REPL in a pseudo-terminal', () => {
  it('streams an answer, shows the model in the status line, and exits 0 on Ctrl-D', async () => {
    fake.server.enqueue({ text: 'The answer is **42**.', chunkSize: 2, intervalMs: 10 });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('what is the answer?\r');
    await s.waitFor('The answer is 42.');
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe('what is the answer?');
    expect(await exitWithCtrlD(s)).toBe(0);
    // bracketed paste and the cursor are restored on the way out
    const tail = s.raw().slice(-200);
    expect(tail).toContain('\x1b[?2004l');
    expect(tail).toContain('\x1b[?25h');
  });

  it('Ctrl-C stops a streaming answer, keeps the partial text, and the prompt works again', async () => {
    fake.server.enqueue({ text: 'word '.repeat(400), chunkSize: 5, intervalMs: 15 }, { text: 'second answer' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('talk a lot\r');
    await s.waitFor('word word word');
    s.write('\x03');
    await s.waitFor('[interrupted]');
    const mark = s.text().length;
    s.write('next question\r');
    await s.waitFor('second answer', { from: mark });
    const reqs = await fake.server.waitForRequests(2);
    // the interrupted partial answer is in the next request, marked
    const prev = reqs[1]!.body.messages.at(-2)!;
    expect(prev.role).toBe('assistant');
    expect(prev.content).toMatch(/^(word )+.*\[interrupted by the user\]$/s);
    expect(prev.content.length).toBeLessThan(2000);
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('a pasted multi-line text arrives as one prompt (bracketed and unbracketed)', async () => {
    fake.server.enqueue({ text: 'got it' }, { text: 'got it too' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('\x1b[200~line one\rline two\r  line three\x1b[201~');
    s.write('\r');
    await s.waitFor('got it');
    s.write('alpha\rbeta\rgamma\r'); // a terminal without bracketed paste: one chunk
    await s.waitFor('got it too');
    const reqs = await fake.server.waitForRequests(2);
    expect(lastUserText(reqs[0]!)).toBe('line one\nline two\n  line three');
    expect(lastUserText(reqs[1]!)).toBe('alpha\nbeta\ngamma');
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('a 2 MB bracketed paste in 4 KB reads lands whole and in order, and the line still takes keys', async () => {
    // The terminal hands it over in many reads; laying the whole text out after each one took
    // minutes and over a gigabyte.
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    const line = 'word '.repeat(99) + 'last\r';
    s.write('\x1b[200~');
    // In reads of ~4 KB, as a terminal delivers a paste (one big write would arrive in a few reads).
    for (let sent = 0; sent < 2 * 1024 * 1024; sent += line.length * 8) {
      s.write(line.repeat(8));
      await new Promise((r) => setTimeout(r, 2));
    }
    s.write('tail of the paste\x1b[201~');
    s.write('ZEND');
    await s.waitFor('tail of the pasteZEND', { timeoutMs: 30_000 });
    s.write('\x03'); // Ctrl-C drops what was typed
    await waitUntil(() => !s.screen.screenLines().join('\n').includes('ZEND'), 'the line emptied', {
      timeoutMs: 30_000,
      detail: () => s.screen.screenLines().join('\n'),
    });
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('↑ recalls the previous input after a restart', async () => {
    fake.server.enqueue({ text: 'first' });
    const home = tmpDir();
    const a = start(home);
    await a.waitFor('fast (gpt-4o-mini)');
    a.write('remember this line\r');
    await a.waitFor('first');
    expect(await exitWithCtrlD(a)).toBe(0);

    fake.server.enqueue({ text: 'again' });
    const b = start(home);
    await b.waitFor('fast (gpt-4o-mini)');
    b.write('\x1b[A'); // up arrow
    await b.waitFor('› remember this line');
    b.write('\r');
    await b.waitFor('again');
    expect(lastUserText((await fake.server.waitForRequests(2))[1]!)).toBe('remember this line');
    expect(await exitWithCtrlD(b)).toBe(0);
  });

  it('Tab completes :mo to :model', async () => {
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write(':mo\t');
    await s.waitFor('› :model ');
    s.write('\r');
    await s.waitFor('* = active; switch with :model NAME');
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('!echo hi shows hi and the next request contains it', async () => {
    fake.server.enqueue({ text: 'noted' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('!echo hi\r');
    await s.waitFor(/\$ echo hi\s+hi\s+\[exit 0\]/);
    s.write('what did it say?\r');
    await s.waitFor('noted');
    const [req] = await fake.server.waitForRequests(1);
    expect(lastUserText(req!)).toBe('Output of a shell command I ran (`echo hi`, exit 0):\n```\nhi\n```\n\nwhat did it say?');
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('a failed call shows one clear line and the next prompt works', async () => {
    fake.server.enqueue({ status: 401 }, { text: 'all good now' });
    const s = start(tmpDir());
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('first try\r');
    await s.waitFor(/✗ .* refused the API key \(401\)[^]*— check\s+\$OPENAI_API_KEY/); // may wrap
    s.write('second try\r');
    await s.waitFor('all good now');
    expect(lastUserText((await fake.server.waitForRequests(2))[1]!)).toBe('second try');
    // the failed question was taken back: the second request does not carry it
    expect(fake.server.requests[1]!.body.messages.map((m: { content: string }) => m.content)).not.toContain('first try');
    expect(await exitWithCtrlD(s)).toBe(0);
  });

  it('Ctrl-C twice at an empty prompt exits, and the terminal is back in cooked mode with echo', async () => {
    const home = tmpDir();
    // run aish from a shell in the pty, then ask the terminal for its settings
    const s = spawnAish([], { home, env: env() });
    s.kill();
    const { spawn } = await import('@lydell/node-pty');
    const pty = spawn('/bin/sh', ['-c', `"${process.execPath}" "${BIN}"; echo "EXIT=$?"; stty -a`], {
      name: 'xterm-256color',
      cols: 120,
      rows: 30,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        XDG_CONFIG_HOME: `${home}/.config`,
        XDG_DATA_HOME: `${home}/.local/share`,
        TERM: 'xterm-256color',
        OPENAI_BASE_URL: fake.server.url,
        OPENAI_API_KEY: 'k',
      },
    });
    let out = '';
    pty.onData((d) => (out += d));
    const done = new Promise<void>((r) => pty.onExit(() => r()));
    const until = (re: RegExp) => waitUntil(() => re.test(stripAnsi(out)), String(re), { detail: () => stripAnsi(out).slice(-1500) });
    await until(/fast \(gpt-4o-mini\)/);
    pty.write('\x03');
    await until(/press Ctrl-C again/);
    pty.write('\x03');
    await done;
    const text = stripAnsi(out);
    expect(text).toContain('EXIT=0');
    const settings = text.slice(text.indexOf('EXIT=0'));
    expect(settings).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(settings).toMatch(/(^|\s)echo(\s|$)/m);
    expect(settings).not.toMatch(/-icanon/);
  });
});
