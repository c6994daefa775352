/**
 * `aish init bash|zsh|fish`: a snippet for the shell's rc file binding Alt-E. The text on the
 * command line is taken as a request in words and replaced by the command `aish -e` suggests for it
 * (stdout captured, so aish prints only the command), left on the line to edit or run: never run.
 * On failure the line is kept as it was; aish's one-line reason is on stderr (zsh: shown under
 * the line with zle -M, so nothing but the command ever lands on the line).
 */
import { UsageError } from '../../util/errors';

export const INIT_SHELLS = ['bash', 'zsh', 'fish'] as const;
export type InitShell = (typeof INIT_SHELLS)[number];

const BASH = `# aish: Alt-E turns the words on the command line into a command to review (never runs it).
# Add to ~/.bashrc:  eval "$(aish init bash)"
__aish_suggest() {
  [[ -n "\${READLINE_LINE//[[:space:]]/}" ]] || return 0
  local cmd
  cmd="$(aish -e "$READLINE_LINE" </dev/null)" || return 0
  [[ -n "$cmd" ]] || return 0
  READLINE_LINE="$cmd"
  READLINE_POINT=\${#cmd}
}
bind -x '"\\ee": __aish_suggest'
`;

const ZSH = `# aish: Alt-E turns the words on the command line into a command to review (never runs it).
# Add to ~/.zshrc:  eval "$(aish init zsh)"
__aish_suggest() {
  [[ -n "\${BUFFER//[[:space:]]/}" ]] || return 0
  local cmd msg rc tmp
  tmp="$(mktemp)" || return 0
  # stderr is kept apart: written to the terminal it would land on the line zle is editing.
  msg="$(aish -e "$BUFFER" </dev/null 2>&1 >"$tmp")"
  rc=$?
  cmd="$(<"$tmp")"
  rm -f -- "$tmp"
  if [[ $rc -eq 0 && -n "$cmd" ]]; then
    BUFFER="$cmd"
    CURSOR=\${#BUFFER}
  fi
  zle reset-prompt
  # Only a failure's reason is shown, under the line; warnings of a run that worked are not.
  [[ $rc -ne 0 && -n "$msg" ]] && zle -M "$msg"
  return 0
}
zle -N __aish_suggest
bindkey '\\ee' __aish_suggest
`;

const FISH = `# aish: Alt-E turns the words on the command line into a command to review (never runs it).
# Add to ~/.config/fish/config.fish:  aish init fish | source
function __aish_suggest
    set -l text (commandline | string collect)
    if string match -qr '\\S' -- $text
        set -l cmd (aish -e "$text" </dev/null | string collect)
        and test -n "$cmd"
        and commandline -r -- $cmd
        and commandline -C (string length -- $cmd)
    end
    commandline -f repaint
end
bind \\ee __aish_suggest
bind -M insert \\ee __aish_suggest 2>/dev/null
`;

const SNIPPETS: Record<InitShell, string> = { bash: BASH, zsh: ZSH, fish: FISH };

export function isInitShell(name: string): name is InitShell {
  return (INIT_SHELLS as readonly string[]).includes(name);
}

/** The snippet for `shell` (usage error for any other). */
export function shellInit(shell: string): string {
  if (!isInitShell(shell)) throw new UsageError(`no init snippet for "${shell}" — use one of ${INIT_SHELLS.join(', ')}`);
  return SNIPPETS[shell];
}
