/**
 * stdin that is not lines of text: an endless stream of NULs, a line with no end, a directory, random
 * bytes. Reading is bounded (the process never grows with its input), refused in one line, exit 1;
 * what came before the bad input still ran, and nothing of it reaches the model.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { BIN, ROOT } from '../helpers/paths';
import { isolatedEnv, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });

/** `aish ARGS < path` (a device, a directory), or `producer | aish ARGS` for a Buffer. */
function aish(stdin: string | Buffer, args: string[] = []): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const fd = typeof stdin === 'string' ? openSync(stdin, 'r') : 'pipe';
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: isolatedEnv(tmpDir(), fake.env()),
      stdio: [fd, 'pipe', 'pipe'],
    });
    if (typeof fd === 'number') closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    // A process that reads without bound would still be running: the test's timeout says so.
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    if (Buffer.isBuffer(stdin)) {
      child.stdin!.on('error', () => undefined); // aish stops reading at the bad line
      child.stdin!.end(stdin);
    }
  });
}

const WHAT_TO_DO = 'pipe prompts and :commands as lines of text';

describe('plain mode (stdin not a terminal, no -p)', () => {
  it('aish < /dev/zero: refused at the first NULs, bounded, one line, exit 1, nothing sent', async () => {
    const r = await aish('/dev/zero');
    expect(r.stderr).toBe(`aish: stdin line 1 holds NUL bytes: binary, not text — ${WHAT_TO_DO}; nothing more was read\n`);
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(fake.server.requests).toHaveLength(0);
  });

  it('a line of NULs after a prompt: the prompt is answered, the NULs are not sent, nothing after them runs', async () => {
    const r = await aish(Buffer.from('first question\n\0\0\0\0\nsecond question\n'));
    expect(r.stdout).toBe('ok.\n');
    expect(r.stderr).toBe(`aish: stdin line 2 holds NUL bytes: binary, not text — ${WHAT_TO_DO}; nothing more was read\n`);
    expect(r.code).toBe(1);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('a line longer than 4 MiB is refused without being held whole', async () => {
    const r = await aish(Buffer.alloc(5 * 1024 * 1024, 'a'));
    expect(r.stderr).toBe(`aish: stdin line 1 is longer than 4 MiB — ${WHAT_TO_DO}; nothing more was read\n`);
    expect(r.code).toBe(1);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('a directory on stdin is named as such', async () => {
    const r = await aish(tmpDir());
    expect(r.stderr).toBe(`aish: stdin is a directory, not text — ${WHAT_TO_DO}\n`);
    expect(r.code).toBe(1);
  });

  it('invalid UTF-8 and CRLF line ends still make prompts (replacement characters, no \\r)', async () => {
    const r = await aish(Buffer.from('caf\xe9 \xff?\r\n:quit\r\n', 'latin1'));
    expect(r).toMatchObject({ code: 0, stdout: 'ok.\n', stderr: '' });
    const sent = fake.server.requests[0]!.body.messages.at(-1);
    expect(sent).toMatchObject({ role: 'user', content: 'caf\ufffd \ufffd?' });
  });
});

describe('aish -p', () => {
  it('< /dev/urandom: refused as binary after a bounded read, nothing sent', async () => {
    const r = await aish('/dev/urandom', ['-p', 'q']);
    expect(r.stderr).toBe(
      'aish: piped stdin: binary (NUL bytes or invalid UTF-8), not text — prompt not sent; pipe text of at most context.maxFileBytes\n',
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('< a directory: refused as one, nothing sent', async () => {
    const r = await aish(tmpDir(), ['-p', 'q']);
    expect(r.stderr).toBe('aish: piped stdin: a directory, not text — prompt not sent; pipe text of at most context.maxFileBytes\n');
    expect(r.code).toBe(1);
    expect(fake.server.requests).toHaveLength(0);
  });
});
