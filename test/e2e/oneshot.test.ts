import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { DEFAULT_SYSTEM_PROMPT } from '../../src/context/system-prompt';
import { closedPort } from '../helpers/ports';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

const env = (extra: Record<string, string> = {}) => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test-key-123456', ...extra });

describe('aish -p', () => {
  it('streams the answer to stdout and exits 0', async () => {
    fake.server.enqueue({ text: 'Hello there, streamed in pieces.', chunkSize: 3 });
    const home = tmpDir();
    const r = await runAish(['-p', 'hi'], { home, env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Hello there, streamed in pieces.\n');
    const [req] = await fake.server.waitForRequests(1);
    expect(req!.body.model).toBe('gpt-4o-mini');
    expect(req!.body.stream).toBe(true);
    expect(req!.body.messages).toEqual([
      { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: 'hi' },
    ]);
  });

  it('attaches piped stdin to the request', async () => {
    fake.server.enqueue({ text: 'looks fine' });
    const r = await runAish(['-p', 'review this diff'], { home: tmpDir(), env: env(), input: 'diff --git a/x b/x\n+added line\n' });
    expect(r.code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    const user = req!.body.messages[1]!.content;
    expect(user).toBe('review this diff\n\nInput from stdin:\n```\ndiff --git a/x b/x\n+added line\n```');
  });

  it('an unreachable server exits 1 with one line naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const r = await runAish(['-p', 'hi'], { home: tmpDir(), env: env({ OPENAI_BASE_URL: url }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`aish: cannot reach ${url} (connection refused) — is the server running, and is the base URL right?\n`);
  });

  it('401 exits 1 with one line about the key, never printing it', async () => {
    fake.server.enqueue({ status: 401, error: { message: 'Incorrect API key provided: sk-test-key-123456' } });
    const r = await runAish(['-p', 'hi'], { home: tmpDir(), env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toMatch(/^aish: .* refused the API key \(401\).*check \$OPENAI_API_KEY\n$/);
    expect(r.stderr).not.toContain('sk-test-key-123456');
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/); // no stack trace
  });

  it('an unknown preset is a usage error (exit 2)', async () => {
    const r = await runAish(['-m', 'dep', '-p', 'hi'], { home: tmpDir(), env: env() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('aish: no model preset "dep" (did you mean deep?) — presets: fast, deep\n');
  });

  it('-m selects the preset', async () => {
    fake.server.enqueue({ text: 'ok' });
    const r = await runAish(['-m', 'deep', '-p', 'hi'], { home: tmpDir(), env: env() });
    expect(r.code).toBe(0);
    expect((await fake.server.waitForRequests(1))[0]!.body.model).toBe('gpt-4o');
  });
});

describe('plain line mode (stdin not a terminal)', () => {
  it('answers prompts, runs meta commands, exits 0 at :quit', async () => {
    fake.server.enqueue({ text: 'Hi! How can I help?' });
    const r = await runAish([], { home: tmpDir(), env: env(), input: 'hello\n:model\n:quit\nnot reached\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Hi! How can I help?\n' +
        '* fast         gpt-4o-mini  (' +
        fake.server.url +
        ')\n' +
        '  deep         gpt-4o  (' +
        fake.server.url +
        ')\n' +
        '* = active; switch with :model NAME\n',
    );
    expect(fake.server.requests).toHaveLength(1);
  });

  it('exits 0 at end of input and keeps the conversation across lines', async () => {
    fake.server.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const r = await runAish([], { home: tmpDir(), env: env(), input: 'one\ntwo\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('first answer\nsecond answer\n');
    const reqs = await fake.server.waitForRequests(2);
    expect(reqs[1]!.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'two' },
    ]);
  });

  it('unknown commands suggest the closest one', async () => {
    const r = await runAish([], { home: tmpDir(), env: env(), input: ':modle\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('aish: unknown command :modle — try :help (did you mean :model?)\n');
  });

  it('!cmd output reaches the next request', async () => {
    fake.server.enqueue({ text: 'I see hi' });
    const r = await runAish([], { home: tmpDir(), env: env(), input: '!echo hi\nwhat did it print?\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hi\nI see hi\n');
    const [req] = await fake.server.waitForRequests(1);
    expect(req!.body.messages[1]!.content).toBe('Output of a shell command I ran (`echo hi`, exit 0):\n```\nhi\n```\n\nwhat did it print?');
  });

  it('!cmd that prints nothing is said so, with its status, not sent as an empty block', async () => {
    fake.server.enqueue({ text: 'ok' });
    const input = "!true\n!mkdir x\n!sh -c 'exit 3'\n!printf '\\n\\n  '\nwhat happened?\n";
    const r = await runAish([], { home: tmpDir(), cwd: tmpDir(), env: env(), input });
    expect(r.code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    const content = req!.body.messages[1]!.content;
    expect(content).not.toContain('```');
    expect(content).toBe(
      [
        'Output of a shell command I ran (`true`, exit 0): none, it printed nothing.',
        'Output of a shell command I ran (`mkdir x`, exit 0): none, it printed nothing.',
        "Output of a shell command I ran (`sh -c 'exit 3'`, exit 3): none, it printed nothing.",
        "Output of a shell command I ran (`printf '\\n\\n  '`, exit 0): only blank space, no text.",
        'what happened?',
      ].join('\n\n'),
    );
  });
});
