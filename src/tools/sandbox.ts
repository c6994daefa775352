/**
 * The sandbox Norris steps and auto-approved commands run in: only aish's working directory and a
 * private temp dir are writable, and the network is off unless allowed. (Placeholder: none yet.)
 */
import type { SandboxMode } from '../config/types';

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
}

export interface Sandbox {
  /** e.g. "bubblewrap 0.8.0". */
  readonly name: string;
  readonly network: boolean;
  /** The program and arguments that run `shell -c command` inside the sandbox in `cwd`. */
  wrap(shell: string, command: string, cwd: string): { file: string; args: string[] };
}

/** The sandbox to use under this policy, or null (mode off, or none on this machine). Cached. */
export async function findSandbox(policy: SandboxPolicy): Promise<Sandbox | null> {
  void policy;
  return null;
}
