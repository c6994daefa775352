/**
 * Programs that overwrite or rewrite files in place: sed -i (and sed's own `e`/`w` commands),
 * cp/mv/install/ln over existing targets, downloads saved to files, archive extraction, rsync,
 * permission changes, patch, and output options of ordinary tools (sort -o, uniq IN OUT, xxd IN
 * OUT, tree -o, sponge). Editors run with commands (`vim -c`, `ed`, `emacs --batch`) count too.
 */
import type { Arg } from './shell-parser';
import { clip, has, hasLong, isOpt, parseFlags, runsLater, scan, writesFile, type Rule } from './rule-kit';

/** GNU sed commands that run a program (`e`, `s///e`) or write a file (`w`, `W`, `s///w`). */
export function sedDanger(script: string): string | null {
  let i = 0;
  const n = script.length;
  const until = (d: string): boolean => {
    for (; i < n && script[i] !== d; i++) if (script[i] === '\\') i++;
    return i++ < n;
  };
  // Text, file names and comments run to the end of the line (text lines ending in `\` go on);
  // labels also end at `;`.
  const skip = (label: boolean): void => {
    while (i < n && !(script[i] === '\n' && script[i - 1] !== '\\') && !(label && script[i] === ';')) i++;
  };
  while (i < n) {
    const c = script[i++]!;
    if (/[\s;{}!,\d$~+=dDgGhHlnNpPqQxzFIM]/.test(c)) continue;
    if (c === '/' && !until('/')) return 'sed script not understood';
    if (c === '\\' && !until(script[i++] ?? '')) return 'sed script not understood';
    if (c === 'e') return 'sed e (runs a command)';
    if (c === 'w' || c === 'W') return 'sed w (writes a file)';
    if ('aicrRL#'.includes(c)) skip(false);
    if (':btTv'.includes(c)) skip(true);
    if (c === 's' || c === 'y') {
      const d = script[i++] ?? '';
      if (!until(d) || !until(d)) return 'sed script not understood';
      const flags = /^[\w]*/.exec(script.slice(i))![0];
      if (c === 's' && /[ew]/.test(flags)) return `sed s///${flags.includes('e') ? 'e (runs a command)' : 'w (writes a file)'}`;
      i += flags.length;
    } else if (/[A-Za-z]/.test(c) && !'aicrR:btTvL'.includes(c)) return 'sed script not understood';
  }
  return null;
}

/**
 * A sed script as far as the text says: variable reads become `x` (they cannot add commands unless
 * the value is chosen to, which the command itself would show); a `$(…)` could say anything.
 */
const sedScript = (a: Arg | undefined): string | null =>
  !a ? '' : !a.dynamic ? a.text : /\$\(|`/.test(a.text) ? null : a.text.replace(/\$\{[^}]*\}|\$\w+/g, 'x').replace(/^"|"$/g, '');

const sed: Rule = (args, ctx) => {
  const scripts: Array<string | null> = [];
  let inPlace = false;
  let sandbox = false;
  const operands = scan(
    args,
    'efl',
    (opt, v) => {
      if (opt === '-i' || isOpt(opt, ['--in-place'])) inPlace = true;
      else if (isOpt(opt, ['--sandbox'])) sandbox = true;
      else if (opt === '-e' || isOpt(opt, ['--expression'])) scripts.push(sedScript(v));
      else if (opt === '-f' || isOpt(opt, ['--file'])) ctx.flag(`sed -f runs ${clip(v?.text ?? '?')}`);
    },
    ['--expression', '--file', '--line-length'],
  );
  // `-i` takes an attached suffix only: `-ie` is -i with suffix "e", not -i -e.
  if (args.some((a) => !a.dynamic && /^-[^-]*i/.test(a.text))) inPlace = true;
  if (scripts.length === 0 && operands[0]) scripts.push(sedScript(operands[0]));
  if (inPlace) ctx.flag('sed -i (rewrites files)');
  if (sandbox) return;
  for (const s of scripts) {
    const danger = s === null ? 'sed script from a command' : sedDanger(s);
    if (danger) return ctx.flag(danger);
  }
};

/** cp, mv, install: overwrite an existing target unless told not to (-n, --update=none, --backup). */
export const overwrites: Rule = (args, ctx, name) => {
  const f = parseFlags(args, ['-t', '-S', '-m', '-o', '-g', '--target-directory', '--suffix', '--mode', '--owner', '--group']);
  if (hasLong(f, '--help', '--version') || has(f, 'nb', '--no-clobber', '--backup') || f.long.some((l) => /^--update=none/.test(l))) return;
  if (name === 'install' && f.short.has('d')) return; // only creates directories
  if (f.positionals.length >= 2 || (f.positionals.length >= 1 && has(f, 't', '--target-directory')))
    ctx.flag(`${name} (overwrites its target)`);
};

const CURL_VALUES = 'oduHXAebcDFTKmwxrCEyYzQPtU';
/** curl's long options that name a file it writes (each also takes a value). */
const CURL_FILE_OPTIONS = [
  '--output',
  '--dump-header',
  '--cookie-jar',
  '--trace',
  '--trace-ascii',
  '--libcurl',
  '--stderr',
  '--etag-save',
  '--hsts',
  '--alt-svc',
];
const curl: Rule = (args, ctx) =>
  void scan(
    args,
    CURL_VALUES,
    (opt, v) => {
      if (['-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name', '--output-dir'].includes(opt))
        ctx.flag(`curl ${opt} (writes files)`);
      else if (opt === '-K' || opt === '--config') ctx.flag(`curl ${opt} (options from a file may write files)`);
      else if ((opt === '-X' || opt === '--request') && /^delete$/i.test(v?.text ?? '')) ctx.flag('curl -X DELETE');
      else if (/^(-[dFT]|--(data|form|upload-file|json)[\w-]*)$/.test(opt)) ctx.flag(`curl ${opt} (sends data)`);
      else if (isOpt(opt, ['-o', '-D', '-c', ...CURL_FILE_OPTIONS], true) && writesFile(v))
        ctx.flag(`curl ${opt} ${clip(v?.text ?? '')} (overwrites)`);
    },
    [...CURL_FILE_OPTIONS, '--output-dir', '--config', '--data', '--header', '--request', '--user', '--user-agent', '--url'],
  );

const wget: Rule = (args, ctx) =>
  void scan(
    args,
    'OoaPeiUtTwQlDARIX',
    (opt, v) => {
      if (
        isOpt(opt, [
          '-P',
          '--directory-prefix',
          '-N',
          '--timestamping',
          '-r',
          '--recursive',
          '-m',
          '--mirror',
          '-e',
          '--execute',
          '--config',
          '--use-askpass',
          '--post-data',
          '--post-file',
          '--body-data',
          '--body-file',
          '--method',
        ])
      )
        ctx.flag(`wget ${opt} (writes files or runs commands)`);
      else if (isOpt(opt, ['-O', '--output-document', '-o', '--output-file']) && writesFile(v))
        ctx.flag(`wget ${opt} ${clip(v?.text ?? '')} (overwrites)`);
    },
    ['--output-document', '--output-file', '--directory-prefix', '--execute', '--config', '--use-askpass'],
  );

const TAR_RUNS = [
  '-I',
  '-F',
  '--to-command',
  '--use-compress-program',
  '--rsh-command',
  '--info-script',
  '--new-volume-script',
  '--rmt-command',
];
const tar: Rule = (args, ctx) => {
  // Old style: `tar xzf a.tgz` bundles the letters in the first word without a dash.
  const first = args[0];
  const bundled = first && !first.dynamic && !first.text.startsWith('-') ? [{ ...first, text: `-${first.text}` }, ...args.slice(1)] : args;
  let extract = false;
  let keep = false;
  scan(bundled, 'fCbIFgKLNTVXH', (opt, v) => {
    if (isOpt(opt, ['--remove-files'])) ctx.flag('tar --remove-files (deletes files)');
    else if (isOpt(opt, ['-x', '--extract', '--get', '--delete'])) extract = true;
    else if (isOpt(opt, ['-k', '--keep-old-files', '--skip-old-files', '--keep-newer-files'])) keep = true;
    else if (isOpt(opt, TAR_RUNS) || (isOpt(opt, ['--checkpoint-action']) && /exec/.test(v?.text ?? 'exec')))
      ctx.flag(`tar ${opt} (runs a program)`);
  });
  if (extract && !keep) ctx.flag('tar -x (overwrites files)');
};

const unzip: Rule = (args, ctx) => {
  const f = parseFlags(args, ['-d', '-x', '-P']);
  if (has(f, 'ofu') && !f.short.has('l') && !f.short.has('t')) ctx.flag('unzip -o (overwrites files)');
};

const sevenZip: Rule = (args, ctx, name) => {
  const t = args.map((a) => a.text);
  if (t[0] === 'd' || t.includes('-sdel')) return ctx.flag(`${name} ${t[0] === 'd' ? 'd' : '-sdel'} (deletes files)`);
  if ((t[0] === 'x' || t[0] === 'e') && t.some((x) => x === '-y' || /^-ao[asu]/.test(x))) ctx.flag(`${name} ${t[0]} -y (overwrites files)`);
};

const ownership: Rule = (args, ctx, name) => {
  const f = parseFlags(args);
  if (!hasLong(f, '--help', '--version') && f.positionals.length > 0)
    ctx.flag(has(f, 'R', '--recursive') ? `${name} -R` : `${name} (changes permissions)`);
};

/** Options of reading tools that write a file instead. */
const outputOption =
  (values: string, opts: string[]): Rule =>
  (args, ctx, name) =>
    void scan(
      args,
      values,
      (opt, v) => {
        if (isOpt(opt, opts) && (opt.startsWith('--comp') || writesFile(v))) ctx.flag(`${name} ${opt} (writes a file)`);
      },
      opts,
    );

const secondOperandWritten =
  (values: string): Rule =>
  (args, ctx, name) => {
    const operands = scan(args, values, () => {});
    if (operands.length >= 2 && writesFile(operands[1])) ctx.flag(`${name} writes ${clip(operands[1]!.text)}`);
  };

const vim: Rule = (args, ctx, name) => {
  if (args.some((a) => /^(\+|-c$|-S$|-s$|--cmd$|-e$|-E$|-[a-zA-Z]*[esS]$)/.test(a.text))) ctx.flag(`${name} runs editor commands`);
};

const always =
  (what: string): Rule =>
  (_args, ctx, name) =>
    ctx.flag(`${name} ${what}`);

export const REWRITE_RULES: Record<string, Rule> = {
  sed,
  gsed: sed,
  cp: overwrites,
  install: overwrites,
  curl,
  wget,
  tar,
  gtar: tar,
  bsdtar: tar,
  unzip,
  '7z': sevenZip,
  '7za': sevenZip,
  '7zz': sevenZip,
  chmod: ownership,
  chown: ownership,
  chgrp: ownership,
  chattr: ownership,
  setfacl: ownership,
  ln: (args, ctx) =>
    has(parseFlags(args), 'f', '--force') || args.some((a) => runsLater(a.text)) ? ctx.flag('ln -f (replaces files)') : undefined,
  rsync: (args, ctx) => (args.length === 1 && /^--(version|help)$/.test(args[0]!.text) ? undefined : ctx.flag('rsync (overwrites files)')),
  patch: (args, ctx) => (args.some((a) => a.text === '--dry-run') ? undefined : ctx.flag('patch (rewrites files)')),
  sort: outputOption('kotST', ['-o', '--output', '--compress-program']),
  tree: outputOption('LPIHTo', ['-o', '-R']),
  base64: outputOption('wbio', ['-o', '--output']),
  uniq: secondOperandWritten('fsw'),
  xxd: secondOperandWritten('cglosn'),
  sponge: (args, ctx) => (args.some((a) => a.text === '-a') ? undefined : ctx.flag('sponge (overwrites a file)')),
  vim,
  vi: vim,
  nvim: vim,
  view: vim,
  gvim: vim,
  ed: always('edits files'),
  ex: always('edits files'),
  emacs: (args, ctx) =>
    args.some((a) => /^(--?batch|--eval|--script|-l|--load|-f|--funcall|-x)/.test(a.text)) ? ctx.flag('emacs runs lisp') : undefined,
  man: (args, ctx) => {
    if (args.some((a) => /^(-[PH]|--pager|--html)/.test(a.text))) ctx.flag('man -P (runs a program)');
  },
  less: (args, ctx) => {
    if (args.some((a) => /^\+.*[!|]|^\+\+?s|^-[oO]|^--log-file/i.test(a.text))) ctx.flag('less runs commands or writes a log');
  },
};
