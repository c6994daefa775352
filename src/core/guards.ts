/**
 * The second and third lines of defence behind the gate, for one session: the sandbox that steps
 * running on their own go into, and the checkpoint taken before a step that may write.
 */
import type { CheckpointStore } from '../checkpoints/lazy';
import type { StepJudge, StepWatch } from '../checkpoints/step-watch';
import type { SafetyConfig } from '../config/types';
import type { Sandbox } from '../tools/sandbox';
import { formatError } from '../util/errors';
import { isWithin, realPath } from '../util/paths';

export class Guards {
  private found: Promise<Sandbox | null> | null = null;
  private warned = false;

  constructor(
    private readonly safety: SafetyConfig,
    /** The checkpoints of aish's directory (it follows `:cd`). */
    readonly checkpoints: CheckpointStore,
    private readonly warn: (text: string) => void,
    /** For a step run without a sandbox: the home directory whose configuration is judged too, and aish's own files in it. */
    private readonly outside?: { home: string; exclude: readonly string[] },
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
      return this.notTaken(err);
    }
  }

  /** A snapshot failed: said once a session. */
  private notTaken(err: unknown): false {
    if (!this.warned) this.warn(`checkpoint not taken (:restore cannot undo this step): ${formatError(err)}`);
    this.warned = true;
    return false;
  }

  /**
   * Snapshot before a step nobody approved that may write, and what judges it after (the
   * after-the-fact check). Taken whatever safety.checkpoints says: the check needs the state before.
   * A step run without a sandbox can write outside the project: the home directory's configuration
   * is judged too (checkpoints/outside.ts), also when the project itself is not snapshotted.
   * Null: the directory is not one aish snapshots (/, the home directory) and the step is
   * sandboxed; false: it failed.
   */
  async watch(label: string, step?: string, unsandboxed = false): Promise<StepJudge | null | false> {
    let project: StepWatch | null;
    try {
      project = await this.checkpoints.watch(label, step);
    } catch (err) {
      return this.notTaken(err);
    }
    if (!unsandboxed || !this.outside) return project;
    const { judgeAll, namedOutside, watchFiles, watchHome } = await import('../checkpoints/outside');
    const home = realPath(this.outside.home);
    const exclude = [...this.outside.exclude.map(realPath), ...(project ? [this.checkpoints.dir] : [])];
    const judges: Array<[StepJudge, string]> = [[watchHome(home, exclude), '~/']];
    // Files elsewhere that the command names, or that a link in the project leads to (written through it).
    const inHomeWatch = (f: string) => isWithin(f, home) && f.slice(home.length + 1).startsWith('.');
    const named = namedOutside(label, realPath(this.checkpoints.dir), home);
    const linked = [...new Set([...(project?.linkedOut() ?? []), ...named])].filter(
      (f) => !inHomeWatch(f) && !exclude.some((x) => isWithin(f, x)),
    );
    if (linked.length) judges.push([watchFiles(linked), '/']);
    return judgeAll(project ? [[project, ''], ...judges] : judges);
  }

  /** One line for the Norris header and :tools: how steps that are not read-only run. */
  async describe(yes: boolean): Promise<string> {
    const s = await this.sandbox();
    if (s) return `sandboxed: ${s.name}, network ${s.network ? 'only for steps you approve' : 'off'}`;
    if (this.sandboxRequired) return 'no sandbox (required): only read-only steps run';
    return yes ? 'no sandbox: steps that are not read-only run unsandboxed (--yes)' : 'no sandbox: steps that are not read-only ask';
  }
}
