/** stdout/stderr for the command-line front ends; a closed pipe (`| head`) is not an error. */
let pipeClosed = false;
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') pipeClosed = true;
  else throw err;
});

export function out(line = ''): void {
  if (!pipeClosed) process.stdout.write(line + '\n');
}

export function warn(line: string): void {
  process.stderr.write(line + '\n');
}
