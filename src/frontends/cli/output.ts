/** stdout/stderr for the command-line front ends; a closed pipe (`| head`) is not an error. */
import { escapeForJson } from '../../util/output-filter';

let pipeClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') {
    pipeClosed = true;
    return;
  }
  // A full disk under `> out.txt`, say: one line, not a stack trace; what was written stays.
  process.stderr.write(`aish: cannot write to stdout (${err.message}) — the output is incomplete\n`);
  process.exit(1);
});

export function out(line = ''): void {
  if (!pipeClosed) process.stdout.write(line + '\n');
}

/** `--json`'s answer, indented; bidi and invisible characters spelled as `\u` escapes (the same data, safe to show). */
export function outJson(value: unknown): void {
  out(escapeForJson(JSON.stringify(value, null, 2)));
}

export function warn(line: string): void {
  process.stderr.write(line + '\n');
}
