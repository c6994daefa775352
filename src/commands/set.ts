/** `:set keys vi|emacs`: session settings that the config file also holds. */
import { command, info, warn } from './types';

const USAGE = 'usage: :set keys vi | :set keys emacs';

export const setCommand = command({
  needs: ['config'],
  name: 'set',
  args: 'keys vi|emacs',
  summary: 'change a setting for this session (keys: the line-editing keys)',
  help: [
    '  :set keys vi      vi keys: Esc for normal mode (h l w b e 0 $ x dw dd cw i a A I u, counts)',
    "  :set keys emacs   readline's emacs keys (the default; editor.keys in the config sets it for good)",
  ].join('\n'),
  // One word at a time, as the line goes on: `:set ` → keys, `:set keys ` → vi, emacs.
  complete: (_s, argv) => (argv.length === 0 ? ['keys'] : argv.length === 1 && argv[0] === 'keys' ? ['vi', 'emacs'] : []),
  run: async ({ config, rest }) => {
    const [name, value, extra] = rest.trim().split(/\s+/);
    if (name === undefined || name === '') return { output: [info(`keys ${config.editor.keys}`)] };
    if (name !== 'keys' || extra !== undefined) return { output: [warn(USAGE)] };
    if (value === undefined) return { output: [info(`keys ${config.editor.keys}`)] };
    if (value !== 'vi' && value !== 'emacs') return { output: [warn(`keys must be vi or emacs, not ${value}: ${USAGE}`)] };
    // The REPL reads this on every key, so the change acts from the next key on.
    config.editor = { ...config.editor, keys: value };
    return { output: [info(`keys ${value}`)] };
  },
});
