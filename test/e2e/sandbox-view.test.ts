/**
 * What a command in aish's bubblewrap sandbox can and cannot do, by running it (bwrapSandbox().wrap,
 * as the gate's steps are run): it writes in the project, wherever it starts and wherever the project
 * lives (/tmp included); it cannot write outside it, nor anything at all when nothing is writable;
 * it has no network unless the view allows it; credential stores are hidden (shown empty, not
 * writable); files kept read-only inside the project stay so. In CI with bubblewrap installed these
 * run whether or not it works here (a broken sandbox fails them); elsewhere they skip without it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bwrapSandbox } from '../../src/tools/sandbox/bwrap';
import type { SandboxView } from '../../src/tools/sandbox/types';
import { jailSkipNote, sandboxRuns } from '../helpers/jail';

const BWRAP = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).stdout.trim() || 'bwrap';
const skipped = sandboxRuns ? '' : jailSkipNote;

let server: Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  server = createServer((_q, r) => {
    hits++;
    r.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Place {
  home: string;
  project: string;
}

/** HOME with a project, a credential store and a file outside the project. Not under /tmp unless asked. */
function place(base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir()): Place {
  const root = realpathSync(mkdtempSync(join(base, 'aish-view-')));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const project = join(home, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'SSH-SECRET\n');
  writeFileSync(join(home, 'notes.txt'), 'outside\n');
  writeFileSync(join(project, '.env'), 'API_KEY=ENV-SECRET\n');
  writeFileSync(join(project, '.bashrc'), '# mine\n');
  return { home, project };
}

/** Runs `command` with bash in the sandbox, started in `cwd`, under `view` (none: the sandbox's defaults). */
function jailed(p: Place, command: string, cwd: string, view?: SandboxView, network = false) {
  const { file, args } = bwrapSandbox(BWRAP, 'bubblewrap', network).wrap('/bin/bash', command, cwd, view);
  const r = spawnSync(file, args, { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: p.home }, timeout: 20_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The same, without blocking: the loopback server answers from this process. */
function jailedAsync(p: Place, command: string, cwd: string, view: SandboxView, network: boolean): Promise<string> {
  const { file, args } = bwrapSandbox(BWRAP, 'bubblewrap', network).wrap('/bin/bash', command, cwd, view);
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { PATH: process.env.PATH, HOME: p.home }, timeout: 20_000 });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve(`${out}exit ${code}`));
  });
}

const view = (p: Place, over: Partial<SandboxView> = {}): SandboxView => ({
  writable: p.project,
  network: false,
  hidden: { dirs: [join(p.home, '.ssh')], files: [join(p.project, '.env')] },
  ...over,
});

describe(`a command in the bubblewrap sandbox${skipped}`, () => {
  it.skipIf(!sandboxRuns)('writes in the project, also when it starts elsewhere in HOME', () => {
    const p = place();
    expect(jailed(p, 'echo made > made.txt', p.project, view(p))).toMatchObject({ code: 0 });
    expect(readFileSync(join(p.project, 'made.txt'), 'utf8')).toBe('made\n');
    expect(jailed(p, 'echo there > project/there.txt', p.home, view(p))).toMatchObject({ code: 0 });
    expect(existsSync(join(p.project, 'there.txt'))).toBe(true);
  });

  it.skipIf(!sandboxRuns)('cannot write, delete or replace anything outside the project; reads it', () => {
    const p = place();
    for (const cmd of ['echo x > ../notes.txt', 'rm -f ../notes.txt', 'touch ../new.txt', 'mv ../notes.txt .', 'touch /etc/aish-x'])
      expect(jailed(p, cmd, p.project, view(p)).code, cmd).not.toBe(0);
    expect(readFileSync(join(p.home, 'notes.txt'), 'utf8')).toBe('outside\n');
    expect(existsSync(join(p.home, 'new.txt'))).toBe(false);
    expect(jailed(p, 'cat ../notes.txt', p.project, view(p))).toEqual({ code: 0, out: 'outside\n' });
  });

  it.skipIf(!sandboxRuns)('with nothing writable, cannot write the project either (only its private /tmp)', () => {
    const p = place();
    expect(jailed(p, 'touch x', p.project, view(p, { writable: null })).code).not.toBe(0);
    expect(existsSync(join(p.project, 'x'))).toBe(false);
    expect(jailed(p, 'touch /tmp/x && ls /tmp', p.project, view(p, { writable: null }))).toEqual({ code: 0, out: 'x\n' });
  });

  it.skipIf(!sandboxRuns)('hidden credential stores read as empty and cannot be written', () => {
    const p = place();
    const r = jailed(p, 'cat ~/.ssh/id_rsa; ls -A ~/.ssh; cat .env; echo end', p.project, view(p));
    expect(r.out).not.toMatch(/SECRET/);
    expect(r.out).toContain('end');
    expect(jailed(p, 'echo k > ~/.ssh/authorized_keys', p.project, view(p)).code).not.toBe(0);
    expect(jailed(p, 'echo API_KEY=x > .env', p.project, view(p)).code).not.toBe(0);
    expect(readFileSync(join(p.project, '.env'), 'utf8')).toBe('API_KEY=ENV-SECRET\n');
    // The same reads without the view show them: the hiding is what keeps them out.
    expect(jailed(p, 'cat ~/.ssh/id_rsa', p.project).out).toBe('SSH-SECRET\n');
  });

  it.skipIf(!sandboxRuns)('files kept read-only inside the project stay as they are', () => {
    const p = place();
    const rc = join(p.project, '.bashrc');
    expect(jailed(p, 'echo evil >> .bashrc', p.project, view(p, { readOnly: [rc] })).code).not.toBe(0);
    expect(readFileSync(rc, 'utf8')).toBe('# mine\n');
    expect(jailed(p, 'echo fine >> .bashrc', p.project, view(p)).code).toBe(0);
  });

  it.skipIf(!sandboxRuns)('no network: the host loopback is out of reach, unless the view allows it', async () => {
    const p = place();
    const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;
    const before = hits;
    expect(await jailedAsync(p, probe, p.project, view(p), false)).toMatch(/exit [1-9]/);
    expect(hits).toBe(before);
    const open = await jailedAsync(p, probe, p.project, view(p, { network: true }), true);
    expect(open).toMatch(/ok\s*exit 0$/);
    expect(hits).toBe(before + 1);
  });

  it.skipIf(!sandboxRuns)('a project under /tmp is the real one, not the private /tmp', () => {
    const p = place(tmpdir());
    expect(jailed(p, 'echo real > f.txt', p.project, view(p))).toMatchObject({ code: 0 });
    expect(readFileSync(join(p.project, 'f.txt'), 'utf8')).toBe('real\n');
  });
});
