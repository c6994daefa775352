/**
 * The environment a tool step runs with. Every step (approved or not; `!CMD` is the user's own and
 * not a step) loses the variables whose names say they hold a secret, unless safety.passEnv names
 * them. A step nobody approved also gets git set up so that it runs no program a configuration
 * file names, wherever that file came from. Why each piece: docs/sandbox.md.
 */

/** Name parts that mark a secret, anywhere in the name, in any casing. */
const SECRET_WORDS = /KEY|TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|AUTH(?!OR(?!IZ))|COOKIE|SESSION|PRIVATE|SIGNATURE|_PAT$|_PWD$|^PWD_/i;

/** Whole families of login variables (cloud, forges, registries, model providers, agents). */
const SECRET_PREFIXES =
  /^(AWS|AZURE|ARM|GCP|GCLOUD|GOOGLE|GH|GITHUB|GITLAB|GL|BITBUCKET|NPM|NODE_AUTH|YARN_NPM|PYPI|TWINE|CARGO_REGISTRY|DOCKER|VAULT|OPENAI|ANTHROPIC|AZURE_OPENAI|HF|HUGGING_?FACE|COHERE|MISTRAL|GROQ|DEEPSEEK|OPENROUTER|TOGETHER|REPLICATE|SSH|GPG|GNUPG|KUBE|HEROKU|VERCEL|NETLIFY|CLOUDFLARE|CF|DIGITALOCEAN|DO|SENTRY|STRIPE|TWILIO|SENDGRID|SLACK|DISCORD|TELEGRAM|AISH)_/i;

/** Connection strings carry their password inside. */
const SECRET_NAMES =
  /^(KUBECONFIG|DATABASE_URL|MYSQL_PWD|PGPASSFILE|PGSERVICEFILE|NETRC|CURL_HOME|(\w+_)?(DB|DATABASE|REDIS|MONGO\w*|POSTGRES\w*|MYSQL|AMQP|RABBITMQ|ELASTIC\w*|SMTP|DSN)_(URL|URI|DSN))$/i;

/** Kept whatever they look like: the shell and terminal need them, and they hold no secret. */
const ALWAYS_KEPT = new Set(['PWD', 'OLDPWD', 'HOME', 'PATH', 'SHELL', 'TERM', 'USER', 'LOGNAME', 'LANG', 'TMPDIR', 'TZ']);

/** A value with a password in it (`scheme://user:pass@host`), whatever the name. */
const CREDENTIAL_URL = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^/\s@]+@/i;

/** Whether the variable is taken out of a step's environment (before the pass list). */
export function isSecretVariable(name: string, value = ''): boolean {
  if (ALWAYS_KEPT.has(name)) return false;
  return SECRET_WORDS.test(name) || SECRET_PREFIXES.test(name) || SECRET_NAMES.test(name) || CREDENTIAL_URL.test(value);
}

/**
 * Git reads these before anything else: they point it at another repository, configuration or
 * helper program. A step that needs one sets it in its own command line, where the gate sees it.
 */
const GIT_REDIRECTS = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_CONFIG',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_SYSTEM',
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'GIT_EXTERNAL_DIFF',
  'GIT_DIFF_OPTS',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
];

/**
 * Command-line scope, which outranks every file (system, global, the repository's, an include, a
 * `commondir` or `--separate-git-dir` one): the keys that name a program git would run by itself.
 * Programs that only a file can name per driver (diff textconv, filters) stay confined by the
 * sandbox: see docs/sandbox.md.
 */
export const GIT_OVERRIDES: ReadonlyArray<[string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.askPass', 'false'],
  ['core.gitProxy', 'false'],
  // An empty value empties the list of helpers gathered so far from every file.
  ['credential.helper', ''],
  ['gpg.program', 'false'],
  ['gpg.openpgp.program', 'false'],
  ['gpg.x509.program', 'false'],
  ['gpg.ssh.program', 'false'],
  ['gpg.ssh.defaultKeyCommand', 'false'],
  ['protocol.allow', 'never'],
  ['protocol.file.allow', 'always'],
];

function gitHardening(): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    // Local paths only: ext:: runs a program, and no other transport is a read.
    GIT_ALLOW_PROTOCOL: 'file',
    GIT_CONFIG_COUNT: String(GIT_OVERRIDES.length),
  };
  GIT_OVERRIDES.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}

export interface StepEnvOptions {
  /** safety.passEnv: names kept although they look secret (a trailing `*` matches a prefix). */
  passEnv: readonly string[];
  /** Nobody approved this step: git configuration cannot run programs either. */
  unasked: boolean;
}

function passes(name: string, pass: readonly string[]): boolean {
  return pass.some((p) => (p.endsWith('*') ? name.startsWith(p.slice(0, -1)) : p === name));
}

/** The environment for one tool step, from aish's own. */
export function stepEnv(base: NodeJS.ProcessEnv, opts: StepEnvOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined) continue;
    if (isSecretVariable(k, v) && !passes(k, opts.passEnv)) continue;
    env[k] = v;
  }
  if (!opts.unasked) return env;
  for (const k of Object.keys(env)) if (GIT_REDIRECTS.includes(k) || /^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(k)) delete env[k];
  return { ...env, ...gitHardening() };
}
