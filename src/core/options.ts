/** How a session starts: from the command line's flags. */
export interface EngineOptions {
  model?: string | undefined;
  /** false: --no-memory */
  memory?: boolean | undefined;
  resume?: string | undefined;
  continueLatest?: boolean | undefined;
  env?: NodeJS.ProcessEnv;
  /** `-p` / `--norris`: the log is marked one-shot (listed only with --all). */
  oneshot?: boolean;
  /** false: no capture (`-p`, `--norris`): one-shot runs never cost an extra model call. */
  capture?: boolean;
}
