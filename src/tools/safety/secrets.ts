/**
 * Reads of credentials: files and directories that hold keys and tokens (`~/.ssh`, `~/.aws`,
 * `~/.config/gh`, `.env` files, `*.pem`, `id_rsa`, aish's own config, …), dumps of the environment
 * (`printenv`, `env`, `export -p`, `jq -n env`, `ps e`, `/proc/PID/environ`) and expansions of
 * secret-named variables (`$OPENAI_API_KEY`). Any of these asks: their output goes to the model,
 * and from there anywhere. Words are matched wherever they appear — arguments, redirections,
 * inline code, `find -name` patterns — and globs (`~/.s*`, `'id_*'`) count when they could name a
 * credentials file.
 */
import { programName, type Arg, type SyntaxNode } from './shell-parser';
import { commandArgv } from './syntax';
import { clip } from './rule-kit';
import { isSecretName } from './secret-names';

/** Two-component paths: `.config/gh`, `.config/aish`, `share/aish`, `run/secrets`, `.local/share/keyrings`. */
const SECRET_PAIR =
  /(^|\/)(\.config\/(gh|hub|gcloud|aish|git\/credentials)|share\/(aish|keyrings)|run\/secrets|ssl\/private|\.config\/(op|google-chrome|chromium|BraveSoftware)|\.(gem|cargo)\/credentials|etc\/g?shadow-?)(\/|$)|\/proc\/.*environ|^\/proc\/[^/\s]+\/?$|\$\{?(XDG_CONFIG_HOME|XDG_DATA_HOME)\}?\/aish|\$\{?AISH_(CONFIG|DATA_DIR)\b/i;
/** Names to try a glob against: `~/.s*` could be `~/.ssh`. */
const SAMPLES = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.env',
  '.env.local',
  '.npmrc',
  '.bash_history',
  'id_rsa',
  'id_ed25519',
  'credentials.json',
  'key.pem',
  'server.key',
];
/** Home, the root or a parent directory, as a whole: a recursive read from there reaches them all. */
const HOME_OR_ROOT = /^(~[\w.-]*|\$\{?HOME\}?|\/root|\/home(\/[\w.-]+)?|\/|\/\.|\.\.(\/\.\.)*)\/?$/;
/** A path under home that is only known at run time: `~/$d/x`, `$HOME/$(printf .ssh)`. */
const DYNAMIC_UNDER_HOME = /^(~[\w.-]*|\$\{?HOME\}?|\/root|\/home\/[^/]*)\/.*(\$|`)/;
/** Variables whose value is a credential: `$OPENAI_API_KEY`, `${GITHUB_TOKEN}`, `$DB_PASSWORD`. */
const SECRET_VARIABLE = /KEY|TOKEN|SECRET|PASSW(OR)?D|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|^PGPASS/i;

/** Programs that read a directory's files recursively (grep -r, rg, tar, zip, cp -r, …). */
const RECURSIVE_READERS = new Set([
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'tar',
  'zip',
  '7z',
  'cpio',
  'cp',
  'rsync',
  'scp',
  'git',
  'diff',
]);

function globRegExp(segment: string): RegExp | null {
  // `*`, `c*`, `*.*`: too common in ordinary commands to ask for; a glob counts when it starts
  // with a dot (`.*`, `.s?h`) or spells out two characters or more (`id_*`, `*.pem`).
  if (!/[*?[{]/.test(segment) || !(segment.startsWith('.') || segment.replace(/\[[^\]]*\]|[*?{},]/g, '').length >= 2)) return null;
  let re = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        re += `[${segment
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') re += '(';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^(${re})$`, 'i');
  } catch {
    return /^/; // a pattern too odd to read could match anything
  }
}

/** What in this word names credentials, or null; `globs`: the word's globs are patterns (not a regex). */
export function secretPath(text: string, globs = true): string | null {
  if (SECRET_PAIR.test(text)) return clip(text);
  // Components of paths, `key=path`, `@file` (curl), `HEAD:path` (git), and words inside code.
  for (const part of text.split(/[\s/:=@,;'"()<>|&`$]+/)) {
    if (!part) continue;
    if (isSecretName(part)) return clip(text);
    const glob = globs ? globRegExp(part) : null;
    if (glob && SAMPLES.some((s) => glob.test(s))) return clip(text);
  }
  return DYNAMIC_UNDER_HOME.test(text) ? clip(text) : null;
}

export const secretVariable = (name: string): boolean => SECRET_VARIABLE.test(name) && !/^(OLD)?PWD$/.test(name);

/** Every option and assignment, nothing to run: `env`, `env -0`, `env -u X`, `env FOO=1`. */
function envDumps(args: Arg[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (/^(-u|--unset|-C|--chdir)$/.test(t)) i++;
    else if (!t.startsWith('-') && !/^\w+=/.test(t)) return false;
  }
  return true;
}

/** Options whose value is a file-name pattern: `find -name 'id_*'`, `rg -g '.env*'`. */
const PATTERN_OPTION = /^(-i?(name|path|wholename|lname)|-g|--i?glob|--include|--exclude)$/;
const JQ = new Set(['jq', 'gojq', 'jaq', 'yq']);
const DECLARE_NAMES = (args: Arg[]): boolean => args.some((a) => !a.text.startsWith('-') && !a.text.startsWith('+'));

/** Programs that turn text into other text: a path spelled by them is only known at run time. */
const ASSEMBLERS = new Set([
  'printf',
  'echo',
  'tr',
  'rev',
  'sed',
  'awk',
  'gawk',
  'base64',
  'base32',
  'basenc',
  'xxd',
  'od',
  'openssl',
  'perl',
  'python',
  'python3',
  'node',
  'ruby',
  'cut',
  'paste',
  'iconv',
  'jq',
]);
const PRINTERS = new Set(['echo', 'printf', 'test', '[']);

/** `cat "$(printf '%s/.%s/id_%s' ~ ssh rsa)"`: an argument spelled by a text tool at run time. */
function assembledPath(name: string, args: Arg[]): string | null {
  if (PRINTERS.has(name)) return null;
  for (const a of args) {
    if (!a.dynamic || !a.node || !/\$\(|`/.test(a.text)) continue;
    const stack = [a.node];
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (n.type === 'command') {
        const first = commandArgv(n)[0];
        const inner = first && programName(first);
        if (inner && ASSEMBLERS.has(inner)) return `${name} of a path ${inner} spells at run time`;
      }
      for (const c of n.namedChildren) if (c) stack.push(c);
    }
  }
  return null;
}

/** Why this simple command dumps the environment or reads credentials, or null. */
export function secretAccess(name: string, args: Arg[]): string | null {
  switch (name) {
    case 'cd':
    case 'pushd':
      // Relative paths from home reach the stores without naming home (`cd; cat .ssh/id_rsa`).
      if (args.length === 0 || /^(~|\$\{?HOME\}?)\/?$/.test(args[0]!.text)) return `${name} to the home directory`;
      break;
    case 'printenv':
      if (args.every((a) => a.text.startsWith('-')) || args.some((a) => a.dynamic || secretVariable(a.text)))
        return 'printenv (reads the environment)';
      break;
    case 'env':
      if (envDumps(args)) return 'env (prints the environment)';
      break;
    case 'export':
    case 'declare':
    case 'typeset':
    case 'local':
    case 'readonly':
      if (!DECLARE_NAMES(args)) return `${name} (prints variables)`;
      break;
    case 'tmux':
    case 'systemctl':
    case 'launchctl':
      if (args.some((a) => /^(show-?environment|showenv|getenv|export)$/.test(a.text))) return `${name} (prints an environment)`;
      break;
    case 'set':
      if (args.length === 0) return 'set (prints variables)';
      break;
    case 'compgen':
      if (args.some((a) => /^-[a-zA-Z]*[ev]|^(variable|export)$/.test(a.text))) return 'compgen (lists variables)';
      break;
    case 'ps':
      // BSD-style `ps e`, `ps auxe`, `ps eww`: the environment of every process.
      if (args.some((a) => /^[a-zA-Z]*e[a-zA-Z]*$/.test(a.text) && !a.text.startsWith('-'))) return 'ps e (prints environments)';
      break;
    case 'jq':
    case 'gojq':
    case 'jaq':
    case 'yq':
      if (args.some((a) => /(^|[^\w$.])env\b|\$ENV\b|\$__prog_args|strenv\(|\benv\(/.test(a.text)))
        return `${name} env (reads the environment)`;
      break;
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
    case 'busybox':
      if (args.some((a) => /ENVIRON/.test(a.text))) return `${name} ENVIRON (reads the environment)`;
      break;
  }
  const reader = RECURSIVE_READERS.has(name) || (name === 'find' && args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a.text)));
  const recursive = reader && args.find((a) => !a.text.startsWith('-') && HOME_OR_ROOT.test(a.text));
  if (recursive && (name !== 'grep' || args.some((a) => /^-[a-zA-Z]*[rR]|^--(recursive|dereference-recursive)$/.test(a.text))))
    return `${name} ${clip(recursive.text)} (reads every file there, credentials too)`;
  const assembled = assembledPath(name, args);
  if (assembled) return assembled;
  // jq's filter is code, not a file name: `.env` there is a field.
  const filter = JQ.has(name) ? args.find((a) => !a.text.startsWith('-')) : undefined;
  for (const [i, a] of args.entries()) {
    if (a === filter) continue;
    // A quoted `.*` is text (a regex, a message); unquoted, or given to `find -name`, it is a glob.
    const hit = secretPath(a.text, a.glob || PATTERN_OPTION.test(args[i - 1]?.text ?? ''));
    if (hit) return `reads credentials (${hit})`;
  }
  return null;
}

/** `$OPENAI_API_KEY`, `${GITHUB_TOKEN:-}`, and `${!name}` (whatever variable name holds). */
export function secretExpansion(text: string): string | null {
  const m = /^\$\{?(!)?(#)?([A-Za-z_]\w*)/.exec(text);
  if (!m) return null;
  if (m[1]) return `${clip(text)} (reads a variable named at run time)`;
  return secretVariable(m[3]!) ? `${clip(text)} (reads a secret)` : null;
}

/** `export`, `export -p`, `declare -x`, `typeset`: a declaration naming no variable prints them all. */
function declarationDump(node: SyntaxNode): string | null {
  const named = node.namedChildren.filter(
    (c) => c && /^(variable_name|variable_assignment|concatenation|simple_expansion|expansion)$/.test(c.type),
  );
  const keyword = clip(node.child(0)?.text ?? 'declare');
  const secret = named.find((c) => c?.type === 'variable_name' && secretVariable(c.text));
  if (secret) return `${keyword} ${secret.text} (prints a secret)`;
  return named.length > 0 ? null : `${keyword} (prints variables)`;
}

/** Secrets a node of the script reads by itself: variables, declarations, assigned paths, heredocs. */
export function secretInNode(node: SyntaxNode): string | null {
  switch (node.type) {
    case 'simple_expansion':
    case 'expansion':
      return secretExpansion(node.text);
    case 'declaration_command':
      return declarationDump(node);
    case 'variable_assignment': {
      const value = secretPath(node.childForFieldName('value')?.text ?? '');
      return value ? `reads credentials (${value})` : null;
    }
    case 'heredoc_body':
    case 'herestring_redirect':
      return secretPath(node.text) ? 'reads credentials (named in a heredoc)' : null;
  }
  return null;
}
