/**
 * Programs that delete, replace or move files as their ordinary job: compressors that swap a file
 * for its compressed copy (`gzip FILE` removes FILE), block-level edits (`fallocate -p`), renamers
 * (`rename`, `mmv`), cmake's file commands (`cmake -E rm -rf`), in-place converters (`dos2unix`),
 * output options (`iconv -o`, `openssl -out`), and network tools that send what they are given
 * (`telnet`, `mail`, httpie with data; `curl -d @file` is in rewrite-rules.ts, `nc` in launchers.ts).
 */
import { clip, has, hasLong, parseFlags, type Rule } from './rule-kit';

const INFO = /^(-h|--help|-V|--version|-L|--license)$/;

/** gzip, bzip2, xz, …: FILE becomes FILE.gz (or back), the original is removed. */
const replacesInput: Rule = (args, ctx, name) => {
  const f = parseFlags(args, ['-S', '--suffix', '-T', '--threads', '-b', '--block-size', '-M', '--memlimit']);
  if (args.some((a) => INFO.test(a.text)) || has(f, 'cktl', '--stdout', '--to-stdout', '--keep', '--test', '--list')) return;
  const file = f.positionals.find((p) => p.text !== '-');
  if (file) ctx.flag(`${name} ${clip(file.text)} (replaces the file)`);
};

/** zstd, lz4, brotli keep their input unless told to remove it. */
const removesWhenAsked: Rule = (args, ctx, name) => {
  if (args.some((a) => a.text === '--rm' || (name === 'brotli' && a.text === '-j'))) ctx.flag(`${name} --rm (deletes its input)`);
  else if (args.some((a) => /^(-[a-zA-Z]*f[a-zA-Z]*|--force)$/.test(a.text))) ctx.flag(`${name} -f (overwrites files)`);
};

/** `cpio -i`, `pax -r`: extraction over existing files, like `tar -x`. */
const extracts =
  (flag: RegExp): Rule =>
  (args, ctx, name) =>
    args.some((a) => flag.test(a.text)) ? ctx.flag(`${name} extracts (overwrites files)`) : undefined;

/** `iconv -o FILE`, `openssl … -out FILE`: write the named file; `openssl s_client` talks to a host. */
const outputFile: Rule = (args, ctx, name) => {
  if (args.some((a) => /^(-o|--output(=.*)?|-out|-keyout)$/.test(a.text) || /^-o./.test(a.text))) ctx.flag(`${name} -o (writes a file)`);
  if (name === 'openssl' && /^(s_client|s_server|s_time|ocsp)$/.test(args[0]?.text ?? '')) ctx.flag('openssl s_client (network)');
};

/** httpie and xh: requests with data, forms, files or a method other than GET. */
const httpie: Rule = (args, ctx, name) => {
  if (
    args.some(
      (a) =>
        /^(POST|PUT|PATCH|DELETE)$/i.test(a.text) ||
        /^(-f|--form|--raw|-d|--download|-o|--output)/.test(a.text) ||
        /^[\w.-]+(=|:=|@|=@|:=@)/.test(a.text),
    )
  )
    ctx.flag(`${name} sends data or writes a file`);
};

const always =
  (what: string): Rule =>
  (args, ctx, name) =>
    args.length === 1 && INFO.test(args[0]!.text) ? undefined : ctx.flag(`${name} ${what}`);

/** `mvn clean`, `gradle clean`, `dotnet clean`: delete the build output. */
const cleans: Rule = (args, ctx, name) => (args.some((a) => a.text === 'clean') ? ctx.flag(`${name} clean (deletes files)`) : undefined);

/** rename, prename, mmv: unless only showing what they would do. */
const renamer: Rule = (args, ctx, name) => {
  if (args.some((a) => INFO.test(a.text) || /^(-n|--dry-run|--no-act|--just-print)$/.test(a.text))) return;
  ctx.flag(`${name} (renames files over others)`);
};

/** `cmake -E rm|remove|rename|copy…`, `cmake -E env|chdir|time CMD`, `cmake -P script`, builds. */
const CMAKE_WRITES =
  /^(rm|remove|remove_directory|rename|copy|copy_if_different|copy_directory|copy_directory_if_different|create_symlink|create_hardlink|tar|make_directory|touch|touch_nocreate)$/;
const cmake: Rule = (args, ctx) => {
  const at = args.findIndex((a) => a.text === '-E');
  if (at >= 0) {
    const sub = args[at + 1];
    if (!sub || sub.dynamic) return ctx.flag('cmake -E with unknown command');
    if (sub.text === 'env' || sub.text === 'time') return ctx.runArgv(args.slice(at + 2).filter((a) => !/^(-|\w+=)/.test(a.text)));
    if (sub.text === 'chdir') return ctx.runArgv(args.slice(at + 3));
    if (CMAKE_WRITES.test(sub.text) && !['make_directory', 'touch', 'touch_nocreate'].includes(sub.text))
      return ctx.flag(`cmake -E ${sub.text} (deletes or overwrites files)`);
    return;
  }
  if (args.some((a) => /^(-P|--build|--install|--workflow)$/.test(a.text))) ctx.flag('cmake runs a script or the build tool');
};

/** dos2unix, unix2dos: convert in place unless writing a new file (-n) or to stdout. */
const converter: Rule = (args, ctx, name) => {
  const f = parseFlags(args);
  if (args.some((a) => INFO.test(a.text)) || has(f, 'n', '--newfile') || hasLong(f, '--info') || f.positionals.length === 0) return;
  ctx.flag(`${name} (rewrites files in place)`);
};

export const FILE_RULES: Record<string, Rule> = {
  gzip: replacesInput,
  gunzip: replacesInput,
  pigz: replacesInput,
  unpigz: replacesInput,
  bzip2: replacesInput,
  bunzip2: replacesInput,
  pbzip2: replacesInput,
  lbzip2: replacesInput,
  xz: replacesInput,
  unxz: replacesInput,
  lzma: replacesInput,
  unlzma: replacesInput,
  lzip: replacesInput,
  plzip: replacesInput,
  compress: replacesInput,
  uncompress: replacesInput,
  zstd: removesWhenAsked,
  unzstd: removesWhenAsked,
  zstdmt: removesWhenAsked,
  lz4: removesWhenAsked,
  unlz4: removesWhenAsked,
  brotli: removesWhenAsked,
  fallocate: always('(changes a file in place)'),
  wipe: always('(deletes files)'),
  rename: renamer,
  prename: renamer,
  'file-rename': renamer,
  'perl-rename': renamer,
  rename_ul: renamer,
  mmv: renamer,
  mcp: renamer,
  mln: renamer,
  mad: renamer,
  cmake,
  dos2unix: converter,
  unix2dos: converter,
  mac2unix: converter,
  unix2mac: converter,
  cpio: extracts(/^(-[a-zA-Z]*i|--extract)/),
  pax: extracts(/^-[a-zA-Z]*r/),
  iconv: outputFile,
  openssl: outputFile,
  http: httpie,
  https: httpie,
  xh: httpie,
  xhs: httpie,
  mail: always('sends mail'),
  mailx: always('sends mail'),
  sendmail: always('sends mail'),
  mutt: always('sends mail'),
  msmtp: always('sends mail'),
  swaks: always('sends mail'),
  lzop: (args, ctx) => (args.some((a) => /^(-U|--unlink|--delete)$/.test(a.text)) ? ctx.flag('lzop -U (deletes its input)') : undefined),
  rar: (args, ctx) =>
    /^(m|mf|d)$/.test(args[0]?.text ?? '') || args.some((a) => a.text === '-df') ? ctx.flag('rar (deletes files)') : undefined,
  unrar: (args, ctx) => (args.some((a) => a.text === '-o+') ? ctx.flag('unrar -o+ (overwrites files)') : undefined),
  mvn: cleans,
  gradle: cleans,
  dotnet: cleans,
  uvx: always('runs a package'),
  tsp: always('runs a command later'),
  nq: always('runs a command later'),
  pueue: (args, ctx) => (args[0]?.text === 'add' ? ctx.flag('pueue add (runs a command later)') : undefined),
  telnet: always('(opens a network connection)'),
  bwrap: always('runs a command'),
  sem: always('runs commands'),
  sudoedit: always('edits files as root'),
};
