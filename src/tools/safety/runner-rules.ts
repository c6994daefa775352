/**
 * Environment managers whose `run`/`exec` subcommand runs the rest of the line as a command
 * (`uv run CMD`, `poetry run CMD`, `bundle exec CMD`, `mise x -- CMD`): the command they run is
 * classified like any other. Options before it may take values that cannot be told from the
 * command, so then the whole line counts as running a command nobody has read.
 */
import type { Rule } from './rule-kit';

const RUNNERS: Record<string, string[]> = {
  uv: ['run'],
  poetry: ['run'],
  pdm: ['run'],
  hatch: ['run'],
  pipenv: ['run'],
  conda: ['run'],
  mamba: ['run'],
  micromamba: ['run'],
  bundle: ['exec'],
  rbenv: ['exec'],
  pyenv: ['exec'],
  nodenv: ['exec'],
  asdf: ['exec'],
  mise: ['exec', 'x'],
  rtx: ['exec', 'x'],
  direnv: ['exec'],
  rustup: ['run'],
  'aws-vault': ['exec'],
  doppler: ['run'],
  op: ['run'],
  dotenvx: ['run'],
};
/** `pipx run PKG`, `nix run FLAKE`: the operand is a package fetched and run, like `npx`. */
const PACKAGE_RUNNERS: Record<string, string[]> = { pipx: ['run'], nix: ['run', 'shell', 'develop'], 'nix-shell': [] };

export const isRunner = (name: string): boolean => Object.hasOwn(RUNNERS, name) || Object.hasOwn(PACKAGE_RUNNERS, name);

/** The runner's own rule (uninstalls and the like) still applies to everything else. */
export const runner =
  (base: Rule | undefined): Rule =>
  (args, ctx, name) => {
    const at = args.findIndex((a) => !a.text.startsWith('-'));
    const sub = args[at];
    if (Object.hasOwn(PACKAGE_RUNNERS, name)) {
      const subs = PACKAGE_RUNNERS[name]!;
      if (subs.length === 0 || (sub && (sub.dynamic || subs.includes(sub.text))))
        return ctx.flag(`${name} ${sub?.text ?? ''} (runs a package)`.trim());
      return base?.(args, ctx, name);
    }
    if (sub && (sub.dynamic || RUNNERS[name]!.includes(sub.text))) {
      const rest = args.slice(at + 1);
      const start = rest[0]?.text === '--' ? 1 : 0;
      if (sub.dynamic || (rest[start]?.text.startsWith('-') ?? false)) return ctx.flag(`${name} ${sub.text} (runs a command)`);
      return ctx.runArgv(rest.slice(start));
    }
    base?.(args, ctx, name);
  };
