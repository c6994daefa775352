/**
 * The sandbox's pure parts: how bubblewrap's argv relates to its inputs, the macOS profile, failure
 * lines, detection logic. What a command in the sandbox can and cannot do is shown by running it:
 * test/e2e/sandbox-view.test.ts and test/e2e/sandbox.test.ts.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSandbox, findSandbox } from '../../src/tools/sandbox';
import { bwrapName, bwrapOptions, bwrapSandbox, bwrapStartFailure } from '../../src/tools/sandbox/bwrap';
import { createSandboxFinder, type DetectDeps, type RunResult } from '../../src/tools/sandbox/detect';
import { macProfile, macSandbox } from '../../src/tools/sandbox/macos';
import { tmpDir } from '../helpers/tmp';

describe('bubblewrap argv', () => {
  it('network allowed: only --unshare-net goes', () => {
    const off = bwrapOptions({ network: false, cwd: '/w' });
    const on = bwrapOptions({ network: true, cwd: '/w' });
    expect(on).not.toContain('--unshare-net');
    expect(off.filter((a) => a !== '--unshare-net')).toEqual(on);
  });

  it('never starts a new session (the process-group kill must reach the sandbox)', () => {
    expect(bwrapOptions({ network: false, cwd: '/w' })).not.toContain('--new-session');
  });

  it('wrap: the command is one argument after --, untouched; the cwd is resolved through symlinks', () => {
    const d = tmpDir();
    mkdirSync(join(d, 'real'));
    symlinkSync(join(d, 'real'), join(d, 'link'));
    const cmd = `echo "$HOME" 'it''s' && rm -rf ./x; \`id\``;
    const { file, args } = bwrapSandbox('/usr/bin/bwrap', 'bubblewrap 0.8.0', false).wrap('/bin/bash', cmd, join(d, 'link'));
    expect(file).toBe('/usr/bin/bwrap');
    expect(args.slice(-4)).toEqual(['--', '/bin/bash', '-c', cmd]);
    const real = args[args.indexOf('--chdir') + 1]!;
    expect(real.endsWith('/real')).toBe(true);
    expect(args.slice(args.indexOf('--bind'), args.indexOf('--bind') + 3)).toEqual(['--bind', real, real]);
  });

  it('a missing cwd is passed on as given (bubblewrap then says what is wrong)', () => {
    const { args } = bwrapSandbox('/usr/bin/bwrap', 'bubblewrap', true).wrap('/bin/sh', 'true', '/no/such/dir');
    expect(args[args.indexOf('--chdir') + 1]).toBe('/no/such/dir');
  });

  it('names itself from bwrap --version', () => {
    expect(bwrapName('bubblewrap 0.8.0\n')).toBe('bubblewrap 0.8.0');
    expect(bwrapName('')).toBe('bubblewrap');
  });
});

describe('bubblewrap argv for one run (the view)', () => {
  it('wrap with a view: network and writable come from the view, not the sandbox', () => {
    const box = bwrapSandbox('/usr/bin/bwrap', 'bubblewrap', true);
    const { args } = box.wrap('/bin/sh', 'ls', '/', { writable: null, network: false, hidden: { dirs: [], files: [] } });
    expect(args).toContain('--unshare-net');
    expect(args).not.toContain('--bind');
    expect(box.wrap('/bin/sh', 'ls', '/').args).not.toContain('--unshare-net'); // no view: the sandbox's own setting
  });

  it('macOS: hidden paths are denied to read, by parameter; nothing writable drops CWD', () => {
    expect(macProfile(false, 2, false)).toContain('(deny file-read* file-write* (subpath (param "H0")) (subpath (param "H1")))');
    expect(macProfile(false, 0, false)).not.toContain('CWD');
    const { args } = macSandbox(true, '/private/tmp/x').wrap('/bin/sh', 'ls', '/', {
      writable: null,
      network: false,
      hidden: { dirs: ['/Users/me/.ssh'], files: [] },
    });
    expect(args).toContain('H0=/Users/me/.ssh');
    expect(args.join(' ')).not.toContain('CWD=');
    expect(args[1]).toContain('(deny network*)');
  });
});

describe('bubblewrap start failures', () => {
  const line = "bwrap: Can't mount proc on /newroot/proc: Operation not permitted\n";
  it('one bwrap line and exit code 1 become one aish line', () => {
    expect(bwrapStartFailure('bubblewrap 0.8.0', 1, line)).toBe(
      "aish: the sandbox (bubblewrap 0.8.0) could not start the command: Can't mount proc on /newroot/proc: Operation not permitted",
    );
    expect(
      bwrapSandbox('/b', 'bubblewrap 0.8.0', false).startFailure!(1, 'bwrap: Creating new namespace failed: Operation not permitted'),
    ).toMatch(/^aish: the sandbox \(bubblewrap 0\.8\.0\) could not start the command: Creating new namespace failed/);
  });

  it('anything else is the command’s own output', () => {
    expect(bwrapStartFailure('b', 0, line)).toBeNull();
    expect(bwrapStartFailure('b', 2, line)).toBeNull();
    expect(bwrapStartFailure('b', null, line)).toBeNull();
    expect(bwrapStartFailure('b', 1, `${line}more\n`)).toBeNull();
    expect(bwrapStartFailure('b', 1, `x ${line}`)).toBeNull();
    expect(bwrapStartFailure('b', 1, '')).toBeNull();
  });
});

describe('macOS sandbox-exec', () => {
  it('the profile denies writes except cwd and tmp (passed as parameters), and the network unless allowed', () => {
    const off = macProfile(false);
    expect(off).toContain('(deny file-write*)');
    expect(off).toContain('(subpath (param "CWD"))');
    expect(off).toContain('(subpath (param "TMP"))');
    expect(off).toContain('(deny network*)');
    expect(macProfile(true)).not.toContain('network');
  });

  it('wrap passes paths with -D, sets TMPDIR, and leaves the command one argument', () => {
    const { file, args } = macSandbox(false, '/private/var/t/aish-sandbox-x').wrap('/bin/zsh', 'echo "a b"', '/nonexistent/proj');
    expect(file).toBe('/usr/bin/sandbox-exec');
    expect(args).toEqual([
      '-p',
      macProfile(false),
      '-D',
      'CWD=/nonexistent/proj',
      '-D',
      'TMP=/private/var/t/aish-sandbox-x',
      '/usr/bin/env',
      'TMPDIR=/private/var/t/aish-sandbox-x/',
      '/bin/zsh',
      '-c',
      'echo "a b"',
    ]);
    expect(macSandbox(false, '/t').startFailure!(65, 'sandbox-exec: invalid profile\n')).toBe(
      'aish: the sandbox (sandbox-exec) could not start the command: invalid profile',
    );
    expect(macSandbox(false, '/t').startFailure!(1, 'cat: x: Operation not permitted\n')).toBeNull();
  });
});

/** A machine as detection sees it; records every program run. */
function fakeMachine(over: Partial<DetectDeps> & { runs?: Array<[string, string[]]>; results?: Record<string, RunResult> } = {}) {
  const runs = over.runs ?? [];
  const deps: DetectDeps = {
    platform: 'linux',
    path: 'bin:/usr/local/bin:/usr/bin/',
    isExecutable: async (f) => ['bin/bwrap', '/usr/bin/bwrap', '/usr/bin/sandbox-exec'].includes(f),
    run: async (file, args) => {
      runs.push([file, args]);
      if (args[0] === '--version') return { code: 0, output: 'bubblewrap 0.9.0\n' };
      return over.results?.probe ?? { code: 0, output: '' };
    },
    probeDir: () => '/tmp',
    makeTempDir: async () => '/private/tmp/aish-sandbox-1',
    ...over,
  };
  return { deps, runs };
}

describe('detection', () => {
  it('mode off: null, and nothing is looked at', async () => {
    const finder = createSandboxFinder(() => {
      throw new Error('looked');
    });
    expect(await finder.detect({ mode: 'off', network: false })).toEqual({
      sandbox: null,
      why: 'the sandbox is off (safety.sandbox: "off")',
    });
    expect(await findSandbox({ mode: 'off', network: true })).toBeNull();
    expect((await detectSandbox({ mode: 'off', network: false })).why).toMatch(/off/);
  });

  it('Linux: finds bwrap on PATH (absolute entries only), probes it once, names it by version', async () => {
    const { deps, runs } = fakeMachine();
    const finder = createSandboxFinder(() => deps);
    const [a, b] = await Promise.all([
      finder.detect({ mode: 'auto', network: false }),
      finder.detect({ mode: 'required', network: false }),
    ]);
    const c = await finder.detect({ mode: 'auto', network: false });
    expect(a.sandbox?.name).toBe('bubblewrap 0.9.0');
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(runs).toHaveLength(2); // --version and the probe, once
    const probe = runs.find(([, args]) => args[0] !== '--version')!;
    expect(probe[0]).toBe('/usr/bin/bwrap');
    expect(probe[1].slice(-4)).toEqual(['--', '/bin/sh', '-c', 'exit 0']);
    expect(probe[1]).toContain('--unshare-net');
    const net = await finder.detect({ mode: 'auto', network: true });
    expect(net.sandbox?.network).toBe(true);
    expect(runs).toHaveLength(4); // the network setting is probed on its own
  });

  it('Linux without bwrap: null and why', async () => {
    const { deps } = fakeMachine({ isExecutable: async () => false });
    const r = await createSandboxFinder(() => deps).detect({ mode: 'required', network: false });
    expect(r.sandbox).toBeNull();
    expect(r.why).toMatch(/bubblewrap is not installed/);
  });

  it('Linux where bwrap cannot make namespaces: null, with bwrap’s first line', async () => {
    const { deps } = fakeMachine({ results: { probe: { code: 1, output: '\nbwrap: setting up uid map: Permission denied\n' } } });
    const r = await createSandboxFinder(() => deps).detect({ mode: 'auto', network: false });
    expect(r).toEqual({
      sandbox: null,
      why: 'bubblewrap does not work here (user namespaces may be disabled): bwrap: setting up uid map: Permission denied',
    });
    const { deps: hung } = fakeMachine({ results: { probe: { code: null, output: '' } } });
    expect((await createSandboxFinder(() => hung).detect({ mode: 'auto', network: false })).why).toMatch(/no answer within 3 s/);
  });

  it('macOS: sandbox-exec, probed with the real profile; missing → why', async () => {
    const { deps, runs } = fakeMachine({ platform: 'darwin' });
    const r = await createSandboxFinder(() => deps).detect({ mode: 'auto', network: false });
    expect(r.sandbox?.name).toBe('sandbox-exec');
    expect(runs).toHaveLength(1);
    expect(runs[0]![0]).toBe('/usr/bin/sandbox-exec');
    const { deps: bare } = fakeMachine({ platform: 'darwin', isExecutable: async () => false });
    expect((await createSandboxFinder(() => bare).detect({ mode: 'auto', network: false })).why).toMatch(/sandbox-exec is not there/);
  });

  it('other systems: none', async () => {
    const { deps, runs } = fakeMachine({ platform: 'win32' });
    expect(await createSandboxFinder(() => deps).detect({ mode: 'auto', network: false })).toEqual({
      sandbox: null,
      why: 'no sandbox is supported on win32',
    });
    expect(runs).toHaveLength(0);
  });
});
