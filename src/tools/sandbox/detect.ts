/**
 * Finding a sandbox that really works on this machine: the program must be there, and one trivial
 * command must run inside it (user namespaces may be disabled, or a container may forbid mounting
 * /proc). Done on first use, never at import, and remembered for the rest of the process.
 */
import { bwrapName, bwrapSandbox } from './bwrap';
import { SANDBOX_EXEC, macSandbox } from './macos';
import type { Sandbox, SandboxDetection, SandboxPolicy } from './types';

export interface RunResult {
  /** null when it did not exit on its own (timed out, or could not start). */
  code: number | null;
  /** stdout and stderr, or why it could not start or finish. */
  output: string;
}

/** What detection needs from the machine; tests pass their own. */
export interface DetectDeps {
  platform: NodeJS.Platform;
  path: string;
  isExecutable(file: string): Promise<boolean>;
  run(file: string, args: string[], timeoutMs: number): Promise<RunResult>;
  /** An existing directory (real path) for the probe to use as its working directory. */
  probeDir(): string;
  /** A private temp directory for macOS sandboxes, made once. */
  makeTempDir(): Promise<string>;
}

const PROBE_TIMEOUT_MS = 3000;

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((l) => l.trim())
      ?.trim() ?? ''
  );
}

async function onPath(deps: DetectDeps, name: string): Promise<string | null> {
  for (const dir of deps.path.split(':')) {
    if (!dir.startsWith('/')) continue; // a relative PATH entry would depend on the cwd
    const file = `${dir.replace(/\/+$/, '')}/${name}`;
    if (await deps.isExecutable(file)) return file;
  }
  return null;
}

/** Runs `sh -c 'exit 0'` in the sandbox; null when that worked, else why not. */
async function probe(deps: DetectDeps, sandbox: Sandbox): Promise<string | null> {
  const { file, args } = sandbox.wrap('/bin/sh', 'exit 0', deps.probeDir());
  const r = await deps.run(file, args, PROBE_TIMEOUT_MS);
  if (r.code === 0) return null;
  return firstLine(r.output) || (r.code === null ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : `exit code ${r.code}`);
}

async function detectLinux(deps: DetectDeps, network: boolean): Promise<SandboxDetection> {
  const bwrap = await onPath(deps, 'bwrap');
  if (!bwrap) return { sandbox: null, why: 'bubblewrap is not installed (no bwrap on PATH; the package is "bubblewrap")' };
  const [version, problem] = await Promise.all([
    deps.run(bwrap, ['--version'], PROBE_TIMEOUT_MS),
    probe(deps, bwrapSandbox(bwrap, 'bubblewrap', network)),
  ]);
  if (problem) return { sandbox: null, why: `bubblewrap does not work here (user namespaces may be disabled): ${problem}` };
  return { sandbox: bwrapSandbox(bwrap, bwrapName(version.output), network), why: null };
}

async function detectMac(deps: DetectDeps, network: boolean): Promise<SandboxDetection> {
  if (!(await deps.isExecutable(SANDBOX_EXEC))) return { sandbox: null, why: `${SANDBOX_EXEC} is not there` };
  const sandbox = macSandbox(network, await deps.makeTempDir());
  const problem = await probe(deps, sandbox);
  return problem ? { sandbox: null, why: `sandbox-exec does not work here: ${problem}` } : { sandbox, why: null };
}

export interface SandboxFinder {
  detect(policy: SandboxPolicy): Promise<SandboxDetection>;
}

/** Keeps one detection per network setting; calls made while one runs share it. */
export function createSandboxFinder(deps: () => DetectDeps): SandboxFinder {
  const cache = new Map<boolean, Promise<SandboxDetection>>();
  return {
    detect(policy) {
      if (policy.mode === 'off') return Promise.resolve({ sandbox: null, why: 'the sandbox is off (safety.sandbox: "off")' });
      let found = cache.get(policy.network);
      if (!found) {
        const d = deps();
        found =
          d.platform === 'linux'
            ? detectLinux(d, policy.network)
            : d.platform === 'darwin'
              ? detectMac(d, policy.network)
              : Promise.resolve({ sandbox: null, why: `no sandbox is supported on ${d.platform}` });
        cache.set(policy.network, found);
      }
      return found;
    },
  };
}
