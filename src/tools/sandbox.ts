/**
 * The sandbox Norris steps and auto-approved commands run in: only aish's working directory and a
 * private temp dir are writable, and the network is off unless allowed. bubblewrap on Linux,
 * sandbox-exec on macOS (see docs/sandbox.md). Nothing is probed until the first call.
 */
import { spawn } from 'node:child_process';
import { constants, mkdtempSync, rmSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPath } from '../util/paths';
import { createSandboxFinder, type DetectDeps, type RunResult } from './sandbox/detect';
import type { Sandbox, SandboxDetection, SandboxPolicy } from './sandbox/types';

export type { Sandbox } from './sandbox/types';

function run(file: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const add = (d: Buffer) => (output += d.toString('utf8'));
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, output: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

let macTmp: string | undefined;

const machine = (): DetectDeps => ({
  platform: process.platform,
  path: process.env.PATH ?? '',
  async isExecutable(file) {
    try {
      await access(file, constants.X_OK);
      return (await stat(file)).isFile();
    } catch {
      return false;
    }
  },
  run,
  probeDir: () => realPath(tmpdir()),
  async makeTempDir() {
    if (!macTmp) {
      const dir = realPath(mkdtempSync(join(tmpdir(), 'aish-sandbox-')));
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
      macTmp = dir;
    }
    return macTmp;
  },
});

const finder = createSandboxFinder(machine);

/**
 * The sandbox to use under this policy and, when there is none, why: mode off, the program is
 * missing, or it does not work here (its own first line of error). Under mode "required" the
 * caller refuses to run with that reason; under "auto" it may run unsandboxed. Cached per process.
 */
export function detectSandbox(policy: SandboxPolicy): Promise<SandboxDetection> {
  return finder.detect(policy);
}

/** The sandbox to use under this policy, or null (mode off, or none on this machine). Cached. */
export async function findSandbox(policy: SandboxPolicy): Promise<Sandbox | null> {
  return (await detectSandbox(policy)).sandbox;
}
