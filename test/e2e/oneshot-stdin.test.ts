/** Piped stdin meets the rules an `@file` meets: text, at most context.maxFileBytes; else one line, nothing sent, exit 1. */
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText } from '../helpers/openai-server';
import { BIN, ROOT } from '../helpers/paths';
import { isolatedEnv, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

/** `aish ARGS < file`: stdin is the file itself, as the shell's redirect gives it. */
function aishFrom(file: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const fd = openSync(file, 'r');
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: isolatedEnv(tmpDir(), { ...fake.env(), ...env }),
      stdio: [fd, 'pipe', 'pipe'],
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** `producer | aish ARGS`: stdin is a pipe (no size known beforehand). */
function aishPiped(data: Buffer, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: isolatedEnv(tmpDir(), fake.env()),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdin.on('error', () => undefined); // aish stops reading past the limit
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(data);
  });
}

function file(name: string, data: string | Buffer): string {
  const p = join(tmpDir(), name);
  writeFileSync(p, data);
  return p;
}

describe('aish -p with piped stdin', () => {
  it('an 800 KB file on stdin is refused with its size, nothing sent, exit 1', async () => {
    const r = await aishFrom(file('big.b64', 'QUJD'.repeat(200_000) + '\n'), ['-p', 'q']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'aish: piped stdin: 781 KB, over context.maxFileBytes (256 KB) — prompt not sent; pipe text of at most context.maxFileBytes\n',
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toEqual([]);
  });

  it('more than the limit through a pipe is refused too', async () => {
    const r = await aishPiped(Buffer.alloc(600_000, 'a'), ['-p', 'q']);
    expect(r.stderr).toBe(
      'aish: piped stdin: over context.maxFileBytes (256 KB) — prompt not sent; pipe text of at most context.maxFileBytes\n',
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toEqual([]);
  });

  it.each([
    ['NUL bytes', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 0x41])],
    ['invalid UTF-8', Buffer.from([0x41, 0xff, 0xfe, 0xc3, 0x28, 0x0a])],
  ])('binary on stdin (%s) is refused, nothing sent, exit 1', async (_what, bytes) => {
    const r = await aishFrom(file('blob.bin', bytes), ['-p', 'what is this']);
    expect(r.stderr).toBe(
      'aish: piped stdin: binary (NUL bytes or invalid UTF-8), not text — prompt not sent; pipe text of at most context.maxFileBytes\n',
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toEqual([]);
  });

  it('UTF-16 on stdin is named as such, with how to convert it; nothing sent, exit 1', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello world\n', 'utf16le')]);
    const r = await aishFrom(file('u16.txt', bytes), ['-p', 'what is this']);
    expect(r.stderr).toBe(
      'aish: piped stdin: UTF-16 text, not UTF-8 (convert it: iconv -f UTF-16 -t UTF-8) — prompt not sent; pipe text of at most context.maxFileBytes\n',
    );
    expect(r.code).toBe(1);
    expect(fake.server.requests).toEqual([]);
  });

  it('text within the limit is attached whole; a raised context.maxFileBytes lets more through', async () => {
    const text = 'line of log\n'.repeat(30_000); // 360,000 bytes
    const cfg = file('config.ts', 'export default { context: { maxFileBytes: 400000 } };\n');
    fake.server.enqueue({ text: 'ok' });
    const r = await aishFrom(file('log.txt', text), ['--config', cfg, '-p', 'summarize']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(lastUserText((await fake.server.waitForRequests(1))[0]!)).toBe(
      `summarize\n\nInput from stdin:\n\`\`\`\n${text.replace(/\n$/, '')}\n\`\`\``,
    );
  });
});
