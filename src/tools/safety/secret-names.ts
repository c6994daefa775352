/**
 * The names that are, or hold, credentials: one definition for the classifier (a command that
 * reads one is destructive) and the sandbox (a file so named in the project is hidden from a step
 * nobody approved), so that a read the classifier misses finds the file empty.
 */
const SECRET_NAME = new RegExp(
  '^(' +
    [
      '\\.(ssh|aws|gnupg|gpg|kube|azure|docker|password-store|vault-token|netrc|git-credentials|pgpass|pypirc|npmrc|s3cfg|boto|dockercfg|htpasswd|terraformrc|my\\.cnf|envrc)',
      '_netrc',
      // .env files, not their checked-in templates
      '\\.env(\\.(?!(example|sample|template|dist|defaults?)$)[\\w.-]+)?',
      'id_(rsa|dsa|ecdsa|ed25519)(_sk)?',
      '[\\w.-]*\\.(pem|key|p12|pfx|jks|keystore|kdbx|ppk|gpg)',
      'credentials\\.(json|toml|ya?ml|xml|csv|tfrc\\.json)',
      '\\.\\w*_history',
      'ssh_host_\\w+_key',
      '\\.?secrets?(\\.(json|ya?ml|toml|env|txt))?',
      '[\\w.-]*\\.(tfstate|tfvars)(\\.backup|\\.json)?',
      'service[-_]?account[\\w.-]*\\.json',
      'logins\\.json|key[34]\\.db|cookies\\.sqlite|\\.mozilla',
    ].join('|') +
    ')$',
  'i',
);

/** Whether one path component names credentials (a public key does not). */
export function isSecretName(part: string): boolean {
  return SECRET_NAME.test(part) && !/\.pub$/.test(part);
}

/**
 * Files in the project that hold secrets by convention (`.env.example` and kin are templates), and
 * every name the classifier counts as credentials (`*.pem`, `*.key`, `credentials.json`, …).
 */
export function isProjectSecret(name: string): boolean {
  if (/^\.env(\..+)?$/.test(name)) return !/^\.env\.(example|sample|template|dist)$/.test(name);
  return (
    ['.envrc', '.npmrc', '.pypirc', '.netrc', '.git-credentials', '.pgpass'].includes(name) ||
    /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/.test(name) ||
    isSecretName(name)
  );
}
