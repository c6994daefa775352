/**
 * The macOS sandbox: sandbox-exec with a profile that allows everything except writing outside the
 * working directory and a private temp dir, and (unless allowed) any network use. sandbox-exec is
 * deprecated by Apple but still shipped; it matches real paths (/private/tmp, not /tmp).
 */
import type { Sandbox } from './types';
import { realPath } from '../../util/paths';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** The SBPL profile; CWD and TMP come in as parameters (-D), so no path is ever quoted into it. */
export function macProfile(network: boolean): string {
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write*',
    '  (subpath (param "CWD"))',
    '  (subpath (param "TMP"))',
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
    '  (regex #"^/dev/fd/"))',
    // Unix sockets are network too: this also keeps the command from daemons that would write for it.
    ...(network ? [] : ['(deny network*)']),
    '',
  ].join('\n');
}

/** `tmp` is a private directory made once per aish process (its real path). */
export function macSandbox(network: boolean, tmp: string): Sandbox {
  return {
    name: 'sandbox-exec',
    network,
    wrap(shell, command, cwd) {
      const dir = realPath(cwd);
      return {
        file: SANDBOX_EXEC,
        args: ['-p', macProfile(network), '-D', `CWD=${dir}`, '-D', `TMP=${tmp}`, '/usr/bin/env', `TMPDIR=${tmp}/`, shell, '-c', command],
      };
    },
    startFailure(exitCode, output) {
      // sandbox-exec reports its own failures (a profile it cannot apply) as one `sandbox-exec: …` line.
      const m = /^sandbox-exec: ([^\n]*)\n?$/.exec(output);
      return exitCode !== 0 && m ? `aish: the sandbox (sandbox-exec) could not start the command: ${m[1]}` : null;
    },
  };
}
