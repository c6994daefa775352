// Credential paths, environment dumps and secret variables (src/tools/safety/secrets.ts): what
// counts, what is only near it, and the glob and parent-directory forms.
import { beforeAll, describe, expect, it } from 'vitest';
import { allowlistVerdictSync } from '../../src/tools/safety/allowlist';
import { classifyCommandSync } from '../../src/tools/safety/classify';
import { secretPath, secretVariable } from '../../src/tools/safety/secrets';
import { loadShellParser } from '../../src/tools/safety/shell-parser';

beforeAll(() => loadShellParser());

describe('secretPath', () => {
  it.each([
    '~/.ssh/id_rsa',
    '/root/.aws/credentials',
    '$HOME/.config/gh/hosts.yml',
    '.env',
    '.env.production.local',
    'certs/tls.key',
    'deploy.pem',
    '~/.s*',
    '~/.[s]sh',
    '~/.{ssh,gnupg}',
    'id_*',
    '*.pem',
    '*_rsa',
    '/proc/1/environ',
    '/proc/self/task/7/environ',
    '-d@.env',
    'HEAD:.env',
    '~/$(printf x)/y',
    '~/.config/aish/config.ts',
    '~/.local/share/aish/history',
    '$XDG_CONFIG_HOME/aish/config.ts',
    '${AISH_CONFIG}',
    '$AISH_DATA_DIR/memory.jsonl',
  ])('names credentials: %s', (p) => expect(secretPath(p)).not.toBeNull());

  it.each([
    '.env.example',
    '.env.sample',
    'keys/id_rsa.pub',
    'src/env.ts',
    'README.md',
    '*.md',
    '*.*',
    'src/*.ts',
    'c*',
    'environment',
    'os.environ',
    '~',
  ])('does not for %s', (p) => expect(secretPath(p)).toBeNull());
});

describe('secretVariable', () => {
  it.each(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'PGPASSWORD', 'AWS_SECRET_ACCESS_KEY', 'SSH_PASSPHRASE'])('%s is secret', (v) =>
    expect(secretVariable(v)).toBe(true),
  );
  it.each(['PATH', 'HOME', 'PWD', 'OLDPWD', 'SHELL', 'LANG'])('%s is not', (v) => expect(secretVariable(v)).toBe(false));
});

describe('commands', () => {
  it.each([
    ['printenv', 'environment'],
    ['env', 'environment'],
    ['export -p', 'variables'],
    ['declare -x', 'variables'],
    ['set', 'variables'],
    ['ps axe', 'environment'],
    ['jq -n env', 'environment'],
    ['gawk \'BEGIN{print ENVIRON["HOME"]}\'', 'ENVIRON'],
    ['echo ${!AWS*}', 'run time'],
    ['grep -rn key ..', 'every file'],
    ['tar czf /tmp/h.tgz ~', 'every file'],
    ['find ~ -type f -exec cat {} +', 'every file'],
    ['cat "$(printf \'%s/.%s/id_%s\' ~ ssh rsa)"', 'spells at run time'],
    ['cd && cat .netrc', 'home directory'],
  ])('%s asks (%s) and is never allowlisted', (c, why) => {
    const v = classifyCommandSync(c);
    expect(v.destructive).toBe(true);
    expect(v.reasons.join(' ')).toContain(why);
    expect(allowlistVerdictSync(c).safe).toBe(false);
  });

  it.each([
    'printenv PATH',
    'env FOO=1 true',
    'export FOO=1',
    'ps -ef',
    'jq .env package.json',
    'grep -rn key src',
    'du -sh ~',
    'find ~ -name x.txt',
    'echo $HOME',
    'wc -l $(git ls-files)',
    'echo "$(pwd)"',
    'cd .. && ls',
  ])('%s does not', (c) => expect(classifyCommandSync(c).destructive).toBe(false));
});
