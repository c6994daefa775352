/**
 * The output boundary, path by path: hostile text (escape sequences, C1 controls, bidi and invisible
 * characters; test/helpers/escape-payloads.ts) reaches aish through a model answer, a server's error
 * body, a memory file, an import, a session, a config, an argument — and not one raw byte of it
 * reaches stdout or stderr. Each entry is one path; the list is in docs/hostile-text.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_PAYLOADS, ESCAPE_PAYLOADS, rawEscape } from '../helpers/escape-payloads';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish, type CliResult } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const P = ALL_PAYLOADS;
const ONE_LINE = Object.values(ESCAPE_PAYLOADS).join(' ').replace(/\n/g, ' ');

interface Box {
  home: string;
  dir: string;
  data: string;
  run(args: string[], input?: string): Promise<CliResult>;
}

function box(): Box {
  const home = tmpDir();
  const dir = join(home, 'project');
  mkdirSync(dir, { recursive: true });
  return {
    home,
    dir,
    data: join(home, '.local', 'share', 'aish'),
    run: (args, input) => runAish(args, { home, cwd: dir, env: fake.env(), input }),
  };
}

/** Both streams clean, and the run got far enough to say something. */
function clean(r: CliResult): void {
  expect(rawEscape(r.stdout), `stdout: ${rawEscape(r.stdout)}`).toBeNull();
  expect(rawEscape(r.stderr), `stderr: ${rawEscape(r.stderr)}`).toBeNull();
  expect(r.stdout + r.stderr).not.toBe('');
}

function exportFile(b: Box, items: object[]): string {
  const file = join(b.dir, 'in.jsonl');
  const meta = { meta: { format: 'aish-memory-export', version: 1, exported: new Date().toISOString(), items: items.length } };
  writeFileSync(file, [meta, ...items].map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

/** The command's output, then what `memory list` and a Markdown export show of the result. */
async function thenShow(b: Box, first: Promise<CliResult>): Promise<CliResult> {
  const rs = [await first, await b.run(['memory', 'list']), await b.run(['memory', 'export', '--format', 'md'])];
  return { ...rs[0]!, stdout: rs.map((r) => r.stdout).join(''), stderr: rs.map((r) => r.stderr).join('') };
}

const item = (over: object) => ({ id: 1, kind: 'fact', content: 'plain', ts: new Date().toISOString(), ...over });

const PATHS: Array<[string, (b: Box) => Promise<CliResult>]> = [
  ['-p answer', (b) => (fake.server.enqueue({ text: P, chunkSize: 3 }), b.run(['-p', 'hi']))],
  ['-p server error message', (b) => (fake.server.setDefault({ status: 400, error: { message: P } }), b.run(['-p', 'hi']))],
  [
    '-p server error body',
    (b) => (fake.server.setDefault({ status: 400, body: `<html>${P}</html>`, contentType: 'text/html' }), b.run(['-p', 'hi'])),
  ],
  ['-p prompt echoed back', (b) => b.run(['-p', P])],
  ['piped answer', (b) => (fake.server.enqueue({ text: P }), b.run([], 'hi\n'))],
  ['piped !command output', (b) => b.run([], `!printf '%s\\n' "$(cat payload)"\n`).then((r) => r)],
  ['piped server error', (b) => (fake.server.setDefault({ status: 400, error: { message: P } }), b.run([], 'hi\n'))],
  ['--norris answer', (b) => (fake.server.enqueue({ text: P }), b.run(['--norris', P]))],
  ['-e suggestion', (b) => (fake.server.setDefault({ text: P }), b.run(['-e', 'list files']))],
  ['memory add: bad kind', (b) => b.run(['memory', 'add', P, 'text'])],
  ['memory add + list', (b) => b.run(['memory', 'add', 'fact', P]).then(() => b.run(['memory', 'list']))],
  ['memory list --json', (b) => b.run(['memory', 'add', 'fact', P]).then(() => b.run(['memory', 'list', '--json']))],
  ['memory search', (b) => b.run(['memory', 'add', 'fact', `needle ${P}`]).then(() => b.run(['memory', 'search', 'needle']))],
  ['memory plan', (b) => b.run(['memory', 'add', 'fact', `needle ${P}`]).then(() => b.run(['memory', 'plan', `needle ${P}`]))],
  ['memory export (JSON lines)', (b) => b.run(['memory', 'add', 'fact', P]).then(() => b.run(['memory', 'export']))],
  ['memory export --format md', (b) => b.run(['memory', 'add', 'fact', P]).then(() => b.run(['memory', 'export', '--format', 'md']))],
  ['memory edit', (b) => b.run(['memory', 'add', 'fact', 'x']).then(() => b.run(['memory', 'edit', '1', P]))],
  ['memory forget: bad id', (b) => b.run(['memory', 'forget', P])],
  [
    'memory import: Markdown item',
    (b) => (
      writeFileSync(join(b.dir, 'm.md'), `# aish memory\n\n## fact — global\n\n- ${ONE_LINE}\n`),
      thenShow(b, b.run(['memory', 'import', 'm.md']))
    ),
  ],
  [
    'memory import: Markdown heading kind',
    (b) => (
      writeFileSync(join(b.dir, 'm.md'), `# aish memory\n\n## ${ONE_LINE} — global\n\n- x\n`),
      thenShow(b, b.run(['memory', 'import', 'm.md']))
    ),
  ],
  ['memory import: bad kind', (b) => thenShow(b, b.run(['memory', 'import', exportFile(b, [item({ kind: P })])]))],
  [
    'memory import: source and tags',
    (b) => thenShow(b, b.run(['memory', 'import', exportFile(b, [item({ content: P, source: P, tags: [P] })])])),
  ],
  ['memory import --dry-run', (b) => b.run(['memory', 'import', '--dry-run', exportFile(b, [item({ content: P, source: P })])])],
  ['memory import: broken line', (b) => (writeFileSync(join(b.dir, 'x.jsonl'), `${P}\n`), b.run(['memory', 'import', 'x.jsonl']))],
  ['memory import: missing file', (b) => b.run(['memory', 'import', P])],
  [
    'memory list: hand-broken memory.jsonl',
    (b) =>
      b.run(['memory', 'add', 'fact', 'x']).then(() => {
        writeFileSync(
          join(b.data, 'memory.jsonl'),
          `{"id":2,"kind":"${P.replace(/[\\"]/g, '').replace(/[\u0000-\u001f]/g, '?')}"}\n${P}\n`,
          { flag: 'a' },
        );
        return b.run(['memory', 'list']);
      }),
  ],
  [
    'memory review --json: candidate source',
    (b) =>
      b.run(['memory', 'add', 'fact', 'x']).then(() => {
        const c = { id: 1, ts: new Date().toISOString(), kind: 'fact', content: P, source: { session: P, quote: P } };
        writeFileSync(join(b.data, 'inbox.jsonl'), JSON.stringify(c) + '\n');
        return b.run(['memory', 'review', '--json']);
      }),
  ],
  ['sessions list', (b) => b.run([], `${P}\n`).then(() => b.run(['sessions', 'list']))],
  ['sessions search', (b) => b.run([], `needle ${P}\n`).then(() => b.run(['sessions', 'search', 'needle']))],
  [
    'sessions export (Markdown)',
    (b) =>
      b
        .run([], `${P}\n`)
        .then(async () => b.run(['sessions', 'export', (await b.run(['sessions', 'list'])).stdout.match(/\S+/)?.[0] ?? '1'])),
  ],
  ['sessions export: unknown name', (b) => b.run(['sessions', 'export', P])],
  ['checkpoints restore: unknown id', (b) => b.run(['checkpoints', 'restore', P, '--yes'])],
  ['unknown option', (b) => b.run([`--x${P}`])],
  ['unknown command', (b) => b.run(['memory', P])],
  ['--config: missing file', (b) => b.run(['--config', join(b.dir, P), 'memory', 'list'])],
  [
    '--config: a config that throws',
    (b) => (
      writeFileSync(join(b.dir, 'c.mjs'), `throw new Error(${JSON.stringify(P)});\n`),
      b.run(['--config', join(b.dir, 'c.mjs'), '-p', 'hi'])
    ),
  ],
  ['--model: unknown preset', (b) => b.run(['-m', P, '-p', 'hi'])],
  ['--resume: unknown session', (b) => b.run(['--resume', P, '-p', 'hi'])],
  ['init: unknown shell', (b) => b.run(['init', P])],
];

describe('no raw control reaches stdout or stderr', () => {
  it.each(PATHS)('%s', async (_name, path) => {
    const b = box();
    writeFileSync(join(b.dir, 'payload'), P);
    clean(await path(b));
  });

  it('the payloads are still there, shown: a bidi override as <U+202E>, ESC as ^[', async () => {
    const b = box();
    fake.server.enqueue({ text: P });
    const r = await b.run(['-p', 'hi']);
    expect(r.stdout).toContain('<U+202E>');
    expect(r.stdout).toContain('txt.<U+202E>exe.sh');
    const l = await b.run(['memory', 'add', P, 'x']);
    expect(l.stderr).toContain('^[]0;pwned-title^G');
  });
});
