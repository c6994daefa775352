/**
 * Harmless developer text for the false-flag measurement: notes and commands full of commit SHAs,
 * UUIDs, digests, base64 snippets of text, URLs, paths and identifiers, generated from a fixed seed.
 * The commit messages and docs lines of public repositories are in secrets-harmless.txt.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mulberry32 } from '../helpers/random';

const rand = mulberry32(7);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
const word = () =>
  pick([
    'parser',
    'cache',
    'index',
    'router',
    'build',
    'deploy',
    'config',
    'session',
    'memory',
    'worker',
    'queue',
    'auth',
    'token',
    'key',
    'secret',
  ]);
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
const sentence = () =>
  pick([
    'fix the flaky test',
    'move helpers into util',
    'the release notes for v2',
    'TODO: check the retry logic',
    'remember to rebase on main',
    'deploy went fine',
  ]);
const b64text = () => Buffer.from(`${sentence()} — ${sentence()} (${word()})`).toString('base64');
const sha256 = () => createHash('sha256').update(String(rand())).digest('hex');
const sri = () => `sha512-${createHash('sha512').update(String(rand())).digest('base64')}`;

const TEMPLATES: (() => string)[] = [
  () => `commit ${hex(40)} fixed the ${word()} regression`,
  () => `git cherry-pick ${hex(40)}`,
  () => `git show ${hex(12)}:src/${word()}.ts`,
  () => `git revert --no-edit ${hex(7)}..${hex(7)}`,
  () => `request id ${uuid()} failed with 502`,
  () => `the ${word()} row ${uuid()} is orphaned`,
  () => `docker pull node@sha256:${sha256()}`,
  () => `sha256sum: ${sha256()}  dist/aish.tgz`,
  () => `"integrity": "${sri()}",`,
  () => `md5 of the fixture is ${hex(32)}`,
  () => `echo ${b64text()} | base64 -d`,
  () => `the payload was ${b64text()}`,
  () => `see https://github.com/${word()}/${word()}/commit/${hex(40)}`,
  () => `https://github.com/${word()}/${word()}/blob/${hex(40)}/src/${word()}.ts#L${Math.floor(rand() * 400)}`,
  () => `docs at https://docs.example.com/${word()}/${uuid()}?tab=${word()}`,
  () => `open https://www.youtube.com/watch?v=${hex(11)} later`,
  () => `node_modules/.pnpm/@babel+core@7.24.${Math.floor(rand() * 9)}_supports-color@8.1.1/node_modules/@babel/core/lib/index.js`,
  () => `/home/dev/projects/${word()}-${word()}/src/${word()}/${word()}-${word()}.test.ts`,
  () => `kubectl rollout restart deployment/${word()}-${hex(10)}-${hex(5)}`,
  () => `the ${word()} ${word()} lives in ~/.config/aish/config.ts`,
  () => `rename ${word()}Key to ${word()}Id in the ${word()} module`,
  () => `const ${word()}Token = await getToken(${word()}Config);`,
  () => `export function parse${word()}Key(input: string): ${word()}Key {`,
  () => `${word().toUpperCase()}_TOKEN_URL=https://auth.example.com/oauth/token`,
  () => `token_count=${Math.floor(rand() * 9000)} max_tokens=4096`,
  () => `the password must be at least ${Math.floor(rand() * 20) + 8} characters`,
  () => `password is required for the ${word()} endpoint`,
  () => `reset the password via the admin panel, then rotate the ${word()} key`,
  () => `API key goes in the vault, never in the repo`,
  () => `set the secret in GitHub Actions: \${{ secrets.${word().toUpperCase()}_TOKEN }}`,
  () => `DB_PASSWORD=\${DB_PASSWORD} docker compose up`,
  () => `api_key: <your-api-key>`,
  () => `token: \${{ secrets.GITHUB_TOKEN }}`,
  () => `ssh-keygen -t ed25519 -C "dev@example.com" -f ~/.ssh/id_${word()}`,
  () => `ip 10.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)}.${Math.floor(rand() * 255)} port ${Math.floor(rand() * 60000)}`,
  () =>
    `released v${Math.floor(rand() * 9)}.${Math.floor(rand() * 20)}.${Math.floor(rand() * 20)} on 2026-0${Math.floor(rand() * 9) + 1}-1${Math.floor(rand() * 9)}`,
  () => `npm install ${word()}@^${Math.floor(rand() * 9)}.${Math.floor(rand() * 9)}.0 --save-dev`,
  () => `the key: press Ctrl-${pick(['C', 'D', 'R', 'L'])} to ${word()}`,
  () => `the secret is to ${sentence()}`,
  () => `ETag: "${hex(32)}"`,
  () => `Content-Security-Policy: script-src 'nonce-${Buffer.from(hex(16)).toString('base64')}'`,
  () => `CSP hash 'sha256-${createHash('sha256').update(String(rand())).digest('base64')}'`,
  () => `trace ${hex(32)}-${hex(16)}-01 in the ${word()} logs`,
  () => `use ${randomUUID()} as the idempotency key for the test`,
];

/** `n` lines of harmless developer notes and commands. */
export function harmlessNotes(n: number): string[] {
  return Array.from({ length: n }, () => pick(TEMPLATES)());
}
