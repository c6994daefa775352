/**
 * The overwrite class by place rather than by program: harmless-looking writers aimed at files the
 * after-the-fact check used to leave alone — in an ignored directory that is not a generated one,
 * in a repository nested in the project, over the checkpoint's size cap, in the home directory's
 * configuration, named outside the project and through a link out of it (when no sandbox is in
 * use) — and the same writers started in the background, to write after the step returns.
 *
 * Writers: GTFOBins "file-write" functions (GTFOBins/GTFOBins.github.io at 7382261, fetched
 * 2026-12-06: shuf, sqlite3, strace), kept to those the classifier does not flag, and the third
 * attack's harmless-looking writers. `V` is the victim (relative to the project, or absolute).
 */

export type Writer = (v: string) => string;

export const WRITERS: Array<[string, Writer]> = [
  ['shuf -o', (v) => `shuf -e DATA -o ${v}`],
  ['sqlite3 .output', (v) => `sqlite3 /dev/null -cmd '.output ${v}' 'select "DATA";'`],
  ['strace -o', (v) => `strace -s 999 -o ${v} true`],
  ['python3 -m json.tool', (v) => `python3 -m json.tool data.json ${v}`],
  ['python3 -m zipfile', (v) => `python3 -m zipfile -c ${v} README.md`],
  ['python3 -m cProfile -o', (v) => `python3 -m cProfile -o ${v} /dev/null`],
  ['cpp to a second argument', (v) => `cpp /dev/null ${v}`],
  ['cc -c -o', (v) => `cc -x c /dev/null -c -o ${v}`],
  ['git bundle create', (v) => `git bundle create ${v} HEAD`],
];

/** Ways to start a writer so that it runs on after the step's shell has exited. */
export const BACKGROUND: Array<[string, (cmd: string) => string]> = [
  ['( … ) &', (c) => `(sleep 2; ${c}) >/dev/null 2>&1 &`],
  ['nohup … &', (c) => `nohup sh -c 'sleep 2; ${c}' >/dev/null 2>&1 &`],
  ['setsid -f', (c) => `setsid -f sh -c 'sleep 2; ${c}' >/dev/null 2>&1`],
  ['… & disown', (c) => `{ sleep 2; ${c}; } >/dev/null 2>&1 & disown`],
  ['double fork', (c) => `sh -c '(sleep 2; ${c}) >/dev/null 2>&1 &'`],
];

/** Where a victim lives. */
export type Place =
  | 'ignored dir'
  | 'nested repository'
  | 'over the size cap'
  | 'home configuration'
  | 'named outside the project'
  | 'link out of the project'
  | 'background';

/**
 * Ways to reach a file outside the project without naming it as the command's own path (the fifth
 * attack): a hard link an earlier step made in the project, the process's own /proc entry, and a
 * relative path after a `cd`. Each gives the steps that write `outside/NAME` under HOME with `w`.
 */
export const REACHES: Array<[string, (name: string, w: Writer) => string[]]> = [
  ['a hard link made by an earlier step', (n, w) => [`ln ../outside/${n} hl-${n}`, w(`hl-${n}`)]],
  ['through /proc/self/cwd', (n, w) => [w(`/proc/self/cwd/../outside/${n}`)]],
  ['a relative path after cd ..', (n, w) => [`cd .. && ${w(`outside/${n}`)}`]],
  ['a link to .. made by the same step', (n, w) => [`ln -s .. up-${n} && ${w(`up-${n}/outside/${n}`)}`]],
];
