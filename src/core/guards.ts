/**
 * The second and third lines of defence behind the gate, for one session: the sandbox that steps
 * running on their own go into, and the checkpoint taken before a step that may write.
 */
import type { CheckpointStore } from '../checkpoints/lazy';
import type { StepWatch } from '../checkpoints/step-watch';
import type { SafetyConfig } from '../config/types';
import type { Sandbox } from '../tools/sandbox';
import { formatError } from '../util/errors';

export class Guards {
  private found: Promise<Sandbox | null> | null = null;
  private warned = false;

  constructor(
    private readonly safety: SafetyConfig,
    /** The checkpoints of aish's directory (it follows `:cd`). */
    readonly checkpoints: CheckpointStore,
    private readonly warn: (text: string) => void,
  ) {}

  get sandboxRequired(): boolean {
    return this.safety.sandbox === 'required';
  }

  /** Looked for once, on first use (never at start-up). */
  sandbox(): Promise<Sandbox | null> {
    this.found ??= import('../tools/sandbox')
      .then(({ findSandbox }) => findSandbox({ mode: this.safety.sandbox, network: this.safety.sandboxNetwork }))
      .catch(() => null);
    return this.found;
  }

  /**
   * Snapshot before a step that may write. A failure is reported once and answered false: a step a
   * person approved goes on, one that nobody approved does not (the caller decides).
   */
  async checkpoint(label: string, step?: string): Promise<boolean> {
    if (!this.safety.checkpoints) return true;
    try {
      await this.checkpoints.snapshot(label, step);
      return true;
    } catch (err) {
      if (!this.warned) this.warn(`checkpoint not taken (:restore cannot undo this step): ${formatError(err)}`);
      this.warned = true;
      return false;
    }
  }

  /**
   * Snapshot before a step nobody approved that may write, and what judges it after (the
   * after-the-fact check). Taken whatever safety.checkpoints says: the check needs the state before.
   * Null: the directory is not one aish snapshots (/, the home directory); false: it failed.
   */
  async watch(label: string, step?: string): Promise<StepWatch | null | false> {
    try {
      return await this.checkpoints.watch(label, step);
    } catch (err) {
      if (!this.warned) this.warn(`checkpoint not taken (:restore cannot undo this step): ${formatError(err)}`);
      this.warned = true;
      return false;
    }
  }

  /** One line for the Norris header and :tools: how steps that are not read-only run. */
  async describe(yes: boolean): Promise<string> {
    const s = await this.sandbox();
    if (s) return `sandboxed: ${s.name}, network ${s.network ? 'only for steps you approve' : 'off'}`;
    if (this.sandboxRequired) return 'no sandbox (required): only read-only steps run';
    return yes ? 'no sandbox: steps that are not read-only run unsandboxed (--yes)' : 'no sandbox: steps that are not read-only ask';
  }
}
