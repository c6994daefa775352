/** `@path` in a prompt end to end: `aish -p` sends the file, refuses what is not text, and Tab completes `@READ` in the REPL. */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const sessions: PtySession[] = [];
afterAll(() => sessions.forEach((s) => s.kill()));

const README = '# Widget\n\nThe widget frobs the gadget twice per tick.\n';

/** A project directory aish runs in, with a README.md. */
function project(): string {
  const d = tmpDir('aish-at-');
  writeFileSync(join(d, 'README.md'), README);
  return d;
}

function userTurns(home: string): Array<{ content: string; typed?: string }> {
  const dir = join(home, '.local', 'share', 'aish', 'sessions');
  return readdirSync(dir)
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as { role?: string; content: string; typed?: string })
    .filter((r) => r.role === 'user');
}

describe('aish -p with @path', () => {
  it('"explain @README.md" sends the file as a fenced block after the prompt; the log keeps what was typed', async () => {
    fake.server.enqueue({ text: 'It frobs gadgets.' });
    const home = tmpDir();
    const r = await runAish(['-p', 'explain @README.md'], { home, cwd: project(), env: fake.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('It frobs gadgets.\n');
    const [req] = await fake.server.waitForRequests(1);
    expect(lastUserText(req!)).toBe(`explain @README.md\n\nREADME.md:\n\`\`\`markdown\n${README}\`\`\``);
    expect(userTurns(home)).toEqual([expect.objectContaining({ typed: 'explain @README.md', content: lastUserText(req!) })]);
  });

  it('piped stdin goes after the attachments and is not scanned for @ references', async () => {
    fake.server.enqueue({ text: 'ok' });
    const r = await runAish(['-p', 'review @README.md'], { home: tmpDir(), cwd: project(), env: fake.env(), input: 'see @README.md\n' });
    expect(r.code).toBe(0);
    const text = lastUserText((await fake.server.waitForRequests(1))[0]!);
    expect(text.split('The widget frobs').length - 1).toBe(1);
    expect(text).toMatch(/^review @README\.md\n\nREADME\.md:\n```markdown\n[^]*```\n\nInput from stdin:\n```\nsee @README\.md\n```$/);
  });

  it('@/dev/urandom is refused without reading it: one line, nothing sent, exit 1', async () => {
    const r = await runAish(['-p', 'what is in @/dev/urandom'], { home: tmpDir(), cwd: project(), env: fake.env(), timeoutMs: 10_000 });
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'aish: @/dev/urandom: not a regular file (a character device) — not attached\n' +
        'aish: prompt not sent: a file could not be attached — remove the @ or name another file\n',
    );
    expect(fake.server.requests).toEqual([]);
  });

  it('a mistyped @path is not sent silently: one line naming the closest file, nothing sent, exit 1', async () => {
    const r = await runAish(['-p', 'explain @READNE.md to @alice'], { home: tmpDir(), cwd: project(), env: fake.env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'aish: @READNE.md: no such file or directory (did you mean @README.md?) — not attached\n' +
        'aish: prompt not sent: a file could not be attached — remove the @ or name another file\n',
    );
    expect(fake.server.requests).toEqual([]);
  });

  it('a 1 MB file is refused (over context.maxFileBytes), and a raised limit attaches it', async () => {
    const dir = project();
    writeFileSync(join(dir, 'big.log'), 'line of log\n'.repeat(90_000)); // 1,080,000 bytes
    const r = await runAish(['-p', 'summarize @big.log'], { home: tmpDir(), cwd: dir, env: fake.env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('aish: @big.log: 1.0 MB, over context.maxFileBytes (256 KB) — not attached\n');
    expect(fake.server.requests).toEqual([]);

    fake.server.enqueue({ text: 'ok' });
    const cfg = join(dir, 'config.ts');
    writeFileSync(cfg, 'export default { context: { maxFileBytes: 2000000 } };\n');
    const ok = await runAish(['--config', cfg, '-p', 'summarize @big.log'], { home: tmpDir(), cwd: dir, env: fake.env() });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!).length).toBeGreaterThan(1_080_000);
  });

  it('an @word that names nothing and an e-mail address are sent as typed', async () => {
    fake.server.enqueue({ text: 'ok' });
    const r = await runAish(['-p', 'ask @nobody or mail me@README.md'], { home: tmpDir(), cwd: project(), env: fake.env() });
    expect(r.code).toBe(0);
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe('ask @nobody or mail me@README.md');
  });
});

describe('generation settings from a config file', () => {
  it('maxTokens, temperature, topP and extraBody reach the request body exactly as configured', async () => {
    fake.server.enqueue({ text: 'ok' });
    const dir = tmpDir();
    const cfg = join(dir, 'config.ts');
    writeFileSync(
      cfg,
      `export default { models: { local: { model: 'qwen2.5', baseURL: '${fake.server.url}', maxTokens: 300, temperature: 0.25, topP: 0.8, extraBody: { repetition_penalty: 1.1, chat_template_kwargs: { enable_thinking: false } } } } };\n`,
    );
    const r = await runAish(['--config', cfg, '-p', 'hi'], { home: tmpDir(), env: fake.env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const body = (await fake.server.waitForRequests(1))[0]!.body;
    expect(body).toMatchObject({
      model: 'qwen2.5',
      max_tokens: 300,
      temperature: 0.25,
      top_p: 0.8,
      repetition_penalty: 1.1,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('extraBody may not set messages: the config is refused (exit 2) naming the key', async () => {
    const cfg = join(tmpDir(), 'config.ts');
    writeFileSync(cfg, "export default { models: { fast: { model: 'x', extraBody: { messages: [] } } } };\n");
    const r = await runAish(['--config', cfg, '-p', 'hi'], { home: tmpDir(), env: fake.env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `aish: config ${cfg}: models.fast.extraBody.messages cannot be set — aish sends model, messages, stream, tools itself\n`,
    );
  });
});

describe('Tab after @ in the REPL', () => {
  it('@READ completes to @README.md, and the prompt sent carries the file; @/dev/urandom is refused on screen', async () => {
    const s = spawnAish([], { home: tmpDir(), env: fake.env(), cwd: project() });
    sessions.push(s);
    await s.waitFor('fast (gpt-4o-mini)');
    s.write('explain @READ');
    await s.waitFor('› explain @READ');
    s.write('\t');
    await s.waitFor('› explain @README.md');
    s.write('\r');
    const [req] = await fake.server.waitForRequests(1);
    expect(lastUserText(req!)).toBe(`explain @README.md\n\nREADME.md:\n\`\`\`markdown\n${README}\`\`\``);
    await s.waitFor('echo: explain @README.md');
    const from = s.text().length;
    s.write('what is @/dev/urandom\r');
    await s.waitFor('@/dev/urandom: not a regular file (a character device) — not attached', { from });
    await s.waitFor('prompt not sent', { from });
    expect(fake.server.requests).toHaveLength(1);
    // A mistyped path is said on screen too, and not sent.
    const typo = s.text().length;
    s.write('\x15explain @READNE.md\r');
    await s.waitFor('@READNE.md: no such file or directory (did you mean @README.md?) — not attached', { from: typo });
    await s.waitFor('prompt not sent', { from: typo });
    expect(fake.server.requests).toHaveLength(1);
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
