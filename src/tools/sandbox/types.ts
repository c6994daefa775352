/** The sandbox's shapes, apart from the code that finds one (so its parts import no cycle). */
import type { SandboxMode } from '../../config/types';

export interface SandboxPolicy {
  mode: SandboxMode;
  network: boolean;
}

/** What one run may reach; without it, `cwd` is writable and the network is the sandbox's own setting. */
export interface SandboxView {
  /** The one directory the command may write (aish's project directory); null: none at all. */
  writable: string | null;
  /** aish's project directory: shown (read-only when it is not `writable`) wherever it lives, /tmp and /run included. */
  project?: string;
  /** The network for this run: false for every step nobody approved, whatever the setting. */
  network: boolean;
  /** Credential stores hidden for this run: directories shown empty, files shown empty. */
  hidden: { dirs: string[]; files: string[] };
  /** Existing paths inside `writable` kept read-only (shell start-up files when the project holds HOME). */
  readOnly?: string[];
  /** [source, target]: files shown read-only in place of others (git configuration without programs). */
  replaced?: Array<[string, string]>;
}

export interface Sandbox {
  /** e.g. "bubblewrap 0.8.0". */
  readonly name: string;
  /** The network setting for steps a person approved (safety.sandboxNetwork). */
  readonly network: boolean;
  /**
   * The program and arguments that run `shell -c command` inside the sandbox, starting in `cwd`.
   * Start it as runShell does: in a session of its own with no terminal, stopped by signalling its
   * process group.
   */
  wrap(shell: string, command: string, cwd: string, view?: SandboxView): { file: string; args: string[] };
  /**
   * When a run ended because the sandbox itself could not start (the command never ran), one line
   * saying so; null otherwise. Optional: a sandbox that cannot tell leaves it out.
   */
  startFailure?(exitCode: number | null, output: string): string | null;
}

/** What detection found: a sandbox, or null and why not (for the caller to show or refuse with). */
export type SandboxDetection = { sandbox: Sandbox; why: null } | { sandbox: null; why: string };
