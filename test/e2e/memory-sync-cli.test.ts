/**
 * `aish memory sync` as users run it: real processes, real git, one bare repository on disk and a
 * data directory per "machine".
 */
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory, MemoryStore } from '../../src/memory/store';
import { aishIn, bareRemote, syncBox, type SyncBox } from '../helpers/sync-boxes';
import { git } from '../helpers/sync-machines';
import { spawnAish } from '../helpers/pty';

type Box = SyncBox;

function world(remote?: string) {
  const { root, bare } = bareRemote('aish-sync-cli-');
  const url = remote ?? bare;
  const box = (name: string): Box => syncBox(join(root, name), url, name);
  const aish = (b: Box, args: string[], input = '') => aishIn(b, args, { input });
  return { root, bare, box, aish };
}

const active = (b: Box) => loadMemory(b.memory).items;

describe('aish memory sync', () => {
  it('three machines add 50 items each and sync concurrently, twice: the same 150 items everywhere, no duplicates', async () => {
    const w = world();
    const boxes = ['a', 'b', 'c'].map((n) => w.box(n));
    for (const [i, b] of boxes.entries()) {
      mkdirSync(b.data, { recursive: true, mode: 0o700 });
      const s = MemoryStore.open(b.memory);
      for (let k = 0; k < 50; k++) await s.add('fact', `machine ${i} item ${k}`);
    }
    for (let round = 0; round < 2; round++) {
      const results = await Promise.all(boxes.map((b) => w.aish(b, ['memory', 'sync', '--json'])));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
    }
    const expected = boxes.flatMap((_, i) => Array.from({ length: 50 }, (_, k) => `machine ${i} item ${k}`)).sort();
    for (const b of boxes) {
      const items = active(b);
      expect(items.map((it) => it.content).sort()).toEqual(expected);
      expect(new Set(items.map((it) => it.uid)).size).toBe(150);
      expect(loadMemory(b.memory).skipped).toEqual([]);
    }
  });

  it('private items (--private) and secrets never reach the repository, in any commit', async () => {
    const w = world();
    const a = w.box('a');
    expect((await w.aish(a, ['memory', 'add', '--private', 'fact', 'the reorg is secret until May'])).code).toBe(0);
    expect((await w.aish(a, ['memory', 'add', 'fact', 'ci runs on buildkite'])).code).toBe(0);
    // A secret as a hand edit could leave it (add would have redacted it).
    const { appendFileSync } = await import('node:fs');
    appendFileSync(
      a.memory,
      JSON.stringify({ id: 50, ts: new Date().toISOString(), kind: 'fact', content: 'aws key AKIAIOSFODNN7EXAMPLE' }) + '\n',
    );
    const r = await w.aish(a, ['memory', 'sync']);
    expect(r.stdout).toMatch(/^synced: sent 1, received 0; kept on this machine: 1 private, 1 with secrets$/m);
    const history = git(w.root, '--git-dir', w.bare, 'log', '--all', '-p');
    expect(history).toContain('ci runs on buildkite');
    expect(history).not.toContain('reorg');
    expect(history).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('an unreachable remote: exit 1, one line saying what git said, the store byte-identical', async () => {
    const w = world('/nonexistent/nowhere/remote.git');
    const b = w.box('a');
    mkdirSync(b.data, { recursive: true, mode: 0o700 });
    await MemoryStore.open(b.memory).add('fact', 'stays as it is');
    const before = readFileSync(b.memory);
    const r = await w.aish(b, ['memory', 'sync']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /cannot fetch \/nonexistent\/nowhere\/remote\.git: .*(does not appear to be a git repository|not found|No such)/i,
    );
    expect(readFileSync(b.memory).equals(before)).toBe(true);
  });

  it('a remote that asks for a password fails at once in a terminal: no prompt ever appears', async () => {
    let asked = 0;
    const server = createServer((_req, res) => {
      asked++;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const w = world(`http://127.0.0.1:${port}/team/memory.git`);
      const b = w.box('a');
      const pty = spawnAish(['--config', b.config, '--data-dir', b.data, 'memory', 'sync'], { home: b.home });
      const code = await pty.exitCode(30_000);
      expect(code).toBe(1);
      expect(asked).toBeGreaterThan(0);
      expect(pty.text()).not.toMatch(/Username for|Password for|password:/i);
      expect(pty.text()).toMatch(
        /cannot fetch http:\/\/127\.0\.0\.1:\d+\/team\/memory\.git: the remote asks for a user name or password, and sync never asks/,
      );
    } finally {
      server.close();
    }
  });

  it('a remote URL with a token in it: the failure line never shows the token', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(403);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const w = world(`http://me:s3cretTOKEN42@127.0.0.1:${port}/team/memory.git`);
      const b = w.box('a');
      const r = await w.aish(b, ['memory', 'sync']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot fetch http:\/\/127\.0\.0\.1:\d+\/team\/memory\.git/);
      expect(r.stdout + r.stderr).not.toContain('s3cretTOKEN42');
    } finally {
      server.close();
    }
  });

  it('a clear on A makes B’s sync without a terminal refuse (exit 1, nothing received) unless --yes', async () => {
    const w = world();
    const [a, b] = [w.box('a'), w.box('b')];
    mkdirSync(a.data, { recursive: true, mode: 0o700 });
    const s = MemoryStore.open(a.memory);
    for (let k = 0; k < 25; k++) await s.add('fact', `note ${k}`);
    expect((await w.aish(a, ['memory', 'sync'])).stdout).toMatch(/^synced: sent 25, received 0$/m);
    expect((await w.aish(b, ['memory', 'sync'])).stdout).toMatch(/^synced: sent 0, received 25 from 1 machine$/m);
    expect((await w.aish(a, ['memory', 'clear', '--yes'])).code).toBe(0);
    expect((await w.aish(a, ['memory', 'sync'])).code).toBe(0);
    const before = readFileSync(b.memory);
    const refused = await w.aish(b, ['memory', 'sync']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/would forget 25 of 25 items here — nothing received; run aish memory sync --yes/);
    expect(readFileSync(b.memory).equals(before)).toBe(true);
    const yes = await w.aish(b, ['memory', 'sync', '--yes', '--json']);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout)).toMatchObject({ received: 25, forgotten: 25 });
    expect(active(b)).toEqual([]);
  });

  it(':memory sync in aish, and a clear message when sync is not set up', async () => {
    const w = world();
    const [a, b] = [w.box('a'), w.box('b')];
    expect((await w.aish(a, [], ':remember the wiki moved to notion\n:memory sync\n:quit\n')).stdout).toMatch(
      /memory: synced: sent 1, received 0/,
    );
    const r = await w.aish(b, [], ':memory sync --dry-run\n:memory sync\n:memory list\n:quit\n');
    expect(r.stdout).toMatch(/memory: would send 0, receive 1 from 1 machine/);
    expect(r.stdout).toMatch(/memory: synced: sent 0, received 1 from 1 machine/);
    expect(r.stdout).toMatch(/the wiki moved to notion/);
    const bare = { ...w.box('c') };
    writeFileSync(bare.config, 'export default {};\n');
    const none = await w.aish(bare, ['memory', 'sync']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/memory sync is not set up — add memory: \{ sync: \{ remote: "…" \} \}/);
  });
});

describe('aish memory sync pointed at the wrong repository', () => {
  it('a project repository (files on its main) is refused: nothing pushed, nothing changed', async () => {
    const w = world();
    const project = join(w.root, 'project.git');
    const work = join(w.root, 'project');
    git(w.root, 'init', '-q', '--bare', project);
    git(w.root, 'clone', '-q', project, work);
    writeFileSync(join(work, 'index.js'), 'console.log(1);\n');
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', 'code');
    git(work, 'push', '-q', 'origin', 'HEAD:main');
    const before = git(w.root, '--git-dir', project, 'rev-parse', 'main');
    const b = w.box('a');
    writeFileSync(b.config, `export default { memory: { sync: { remote: ${JSON.stringify(project)}, auto: "off" } } };\n`);
    expect((await w.aish(b, ['memory', 'add', 'fact', 'do not push me into the project'])).code).toBe(0);
    const r = await w.aish(b, ['memory', 'sync']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /is not a memory repository \(its main branch holds index\.js\) — point memory\.sync\.remote at an empty repository/,
    );
    expect(git(w.root, '--git-dir', project, 'rev-parse', 'main')).toBe(before);
  });
});
