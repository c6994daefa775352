/**
 * The macOS sandbox: sandbox-exec with a profile that allows everything except writing outside the
 * working directory and a private temp dir, and (unless allowed) any network use. sandbox-exec is
 * deprecated by Apple but still shipped; it matches real paths (/private/tmp, not /tmp).
 */
import type { Sandbox } from './types';
import { realPath } from '../../util/paths';

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/**
 * The SBPL profile; CWD, TMP and the hidden paths (H0, H1, …) come in as parameters (-D), so no
 * path is ever quoted into it. `writable` false: only TMP can be written.
 */
export function macProfile(network: boolean, hidden = 0, writable = true, readOnly = 0): string {
  const hide = Array.from({ length: hidden }, (_, i) => `(subpath (param "H${i}"))`);
  const keep = Array.from({ length: readOnly }, (_, i) => `(subpath (param "R${i}"))`);
  return [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write*',
    ...(writable ? ['  (subpath (param "CWD"))'] : []),
    '  (subpath (param "TMP"))',
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper")',
    '  (regex #"^/dev/fd/"))',
    // Unix sockets are network too: this also keeps the command from daemons that would write for it.
    ...(network ? [] : ['(deny network*)']),
    ...(hide.length ? [`(deny file-read* file-write* ${hide.join(' ')})`] : []),
    ...(keep.length ? [`(deny file-write* ${keep.join(' ')})`] : []),
    '',
  ].join('\n');
}

/** `tmp` is a private directory made once per aish process (its real path). */
export function macSandbox(network: boolean, tmp: string): Sandbox {
  return {
    name: 'sandbox-exec',
    network,
    wrap(shell, command, cwd, view) {
      const dir = realPath(cwd);
      const hidden = view ? [...view.hidden.dirs, ...view.hidden.files] : [];
      const writable = view ? view.writable && realPath(view.writable) : dir;
      const profile = macProfile(view ? view.network : network, hidden.length, writable !== null);
      const params = [
        ...(writable ? ['-D', `CWD=${writable}`] : []),
        '-D',
        `TMP=${tmp}`,
        ...hidden.flatMap((h, i) => ['-D', `H${i}=${h}`]),
      ];
      return { file: SANDBOX_EXEC, args: ['-p', profile, ...params, '/usr/bin/env', `TMPDIR=${tmp}/`, shell, '-c', command] };
    },
    startFailure(exitCode, output) {
      // sandbox-exec reports its own failures (a profile it cannot apply) as one `sandbox-exec: …` line.
      const m = /^sandbox-exec: ([^\n]*)\n?$/.exec(output);
      return exitCode !== 0 && m ? `aish: the sandbox (sandbox-exec) could not start the command: ${m[1]}` : null;
    },
  };
}
