/**
 * Secrets as people type them, for the corpus tests: every value is fake, generated from a fixed
 * seed in the shape of a gitleaks rule (its regex and true-positive examples in
 * cmd/generate/config/rules/*.go) or of the forms people type rather than commit (assignments with
 * short values, passwords in words, HTTP auth, credentials in URLs, split and spaced-out tokens).
 * `secret` is the part that must not be stored; `from` says where the shape comes from.
 */
import { mulberry32 } from '../helpers/random';

export interface SecretSample {
  from: string;
  text: string;
  secret: string;
}

const rand = mulberry32(22);
const AL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64 = AL + '+/';
const r = (n: number, chars = AL) => Array.from({ length: n }, () => chars[Math.floor(rand() * chars.length)]).join('');
const s = (from: string, secret: string, text: (x: string) => string): SecretSample => ({ from, secret, text: text(secret) });

export const SECRET_SAMPLES: SecretSample[] = [
  // Shapes of gitleaks' rules (rule id as `from`).
  s('github-pat', `ghp_${r(36)}`, (x) => `my github token is ${x}`),
  s('github-oauth', `gho_${r(36)}`, (x) => `oauth: ${x}`),
  s('github-app-token', `ghs_${r(36)}`, (x) => `app token ${x} expires in an hour`),
  s('github-fine-grained-pat', `github_pat_${r(82, AL + '_')}`, (x) => `use ${x} for the CI`),
  s('gitlab-pat', `glpat-${r(20)}`, (x) => `gitlab: ${x}`),
  s('slack-bot-token', `xoxb-${r(12, '0123456789')}-${r(13, '0123456789')}-${r(24)}`, (x) => `SLACK_BOT=${x}`),
  s('slack-user-token', `xoxp-${r(12, '0123456789')}-${r(12, '0123456789')}-${r(12, '0123456789')}-${r(32)}`, (x) => `slack user ${x}`),
  s('slack-webhook-url', `https://hooks.slack.com/services/T${r(10, UP)}/B${r(10, UP)}/${r(24)}`, (x) => `post alerts to ${x}`),
  s('stripe-access-token', `sk_live_${r(24)}`, (x) => `stripe live key ${x}`),
  s('twilio-api-key', `SK${r(32, HEX)}`, (x) => `twilio ${x}`),
  s('sendgrid-api-token', `SG.${r(22)}.${r(43)}`, (x) => `sendgrid ${x}`),
  s('mailgun-private-api-token', `key-${r(32, HEX)}`, (x) => `mailgun key: ${x}`),
  s('npm-access-token', `npm_${r(36)}`, (x) => `//registry.npmjs.org/:_authToken=${x}`),
  s('pypi-upload-token', `pypi-AgEIcHlwaS5vcmc${r(70, AL + '_-')}`, (x) => `twine password ${x}`),
  s('shopify-access-token', `shpat_${r(32, HEX)}`, (x) => `shop ${x}`),
  s('digitalocean-pat', `dop_v1_${r(64, HEX)}`, (x) => `doctl auth init -t ${x}`),
  s('heroku-api-key-v2', `HRKU-AA${r(58, AL + '_-')}`, (x) => `heroku ${x}`),
  s('vault-service-token', `hvs.${r(96, AL + '_-')}`, (x) => `VAULT ${x}`),
  s('doppler-api-token', `dp.pt.${r(43)}`, (x) => `doppler ${x}`),
  s('databricks-api-token', `dapi${r(32, HEX)}`, (x) => `databricks ${x}`),
  s('linear-api-key', `lin_api_${r(40)}`, (x) => `linear ${x}`),
  s('sentry-user-token', `sntryu_${r(64, HEX)}`, (x) => `sentry ${x}`),
  s('age-secret-key', `AGE-SECRET-KEY-1${r(58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}`, (x) => `age identity ${x}`),
  s('planetscale-api-token', `pscale_tkn_${r(43)}`, (x) => `pscale ${x}`),
  s('postman-api-token', `PMAK-${r(24, HEX)}-${r(34, HEX)}`, (x) => `postman ${x}`),
  s('pulumi-api-token', `pul-${r(40, HEX)}`, (x) => `pulumi login with ${x}`),
  s('rubygems-api-token', `rubygems_${r(48, HEX)}`, (x) => `gem push key ${x}`),
  s('grafana-cloud-api-token', `glc_${r(80, B64)}`, (x) => `grafana ${x}`),
  s('huggingface-access-token', `hf_${r(34, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ')}`, (x) => `HF ${x}`),
  s('anthropic-api-key', `sk-ant-api03-${r(93, AL + '_-')}AA`, (x) => `claude key ${x}`),
  s('openai-api-key', `sk-proj-${r(74, AL + '_-')}T3BlbkFJ${r(74, AL + '_-')}`, (x) => `OPENAI ${x}`),
  s('telegram-bot-api-token', `${r(9, '0123456789')}:AA${r(33, AL + '_-')}`, (x) => `TELEGRAM_BOT_TOKEN=${x}`),
  s('discord-api-token', r(64, HEX), (x) => `discord_token = "${x}"`),
  s('dynatrace-api-token', `dt0c01.${r(24)}.${r(64)}`, (x) => `dynatrace ${x}`),
  s('square-access-token', `EAAA${r(60, AL + '_-')}`, (x) => `square ${x}`),
  s('shippo-api-token', `shippo_live_${r(40, HEX)}`, (x) => `shippo ${x}`),
  s('sendinblue-api-token', `xkeysib-${r(64, HEX)}-${r(16)}`, (x) => `brevo ${x}`),
  s('typeform-api-token', `tfp_${r(59)}`, (x) => `typeform_token: ${x}`),
  s('easypost-api-token', `EZAK${r(54)}`, (x) => `easypost ${x}`),
  s('readme-api-token', `rdme_${r(70, 'abcdefghijklmnopqrstuvwxyz0123456789')}`, (x) => `readme ${x}`),
  s('alibaba-access-key-id', `LTAI${r(20)}`, (x) => `aliyun ${x}`),
  s('notion-api-token', `ntn_${r(11, '0123456789')}${r(35)}`, (x) => `notion ${x}`),
  s('gcp-api-key', `AIza${r(35, AL + '_-')}`, (x) => `maps key ${x}`),
  s('datadog-access-token', r(40), (x) => `datadog_api_key=${x}`),
  s('mailchimp-api-key', `${r(32, HEX)}-us12`, (x) => `mailchimp: ${x}`),
  s('postman-api-token', `PMAK-${r(24, HEX)}-${r(34, HEX)}`, (x) => `"postman": "${x}"`),
  s('infracost-api-token', `ico-${r(32)}`, (x) => `infracost ${x}`),
  s('octopus-deploy-api-key', `API-${r(26, UP)}`, (x) => `octopus ${x}`),
  s('perplexity-api-key', `pplx-${r(48)}`, (x) => `pplx ${x}`),
  s('artifactory-api-key', `AKCp${r(69)}`, (x) => `artifactory ${x}`),
  s('aws-access-token', `AKIA${r(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`, (x) => `aws_access_key_id = ${x}`),
  s('jwt', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIke${r(30)}In0.${r(43, AL + '_-')}`, (x) => `session cookie ${x}`),
  s(
    'private-key',
    `-----BEGIN RSA PRIVATE KEY-----\n${r(64, B64)}\n${r(64, B64)}\n${r(20, B64)}==\n-----END RSA PRIVATE KEY-----`,
    (x) => `deploy key:\n${x}`,
  ),
  s('curl-auth-user', `${r(12)}`, (x) => `curl -u admin:${x} https://api.internal/v1`),
  s('curl-auth-header', r(40), (x) => `curl -H "Authorization: Bearer ${x}" https://api.internal/v1`),
  s('generic-api-key', r(32), (x) => `"api_key": "${x}"`),
  // The forms people type (the 22 kinds the attack found stored as typed, and their neighbours).
  s('assignment', r(12), (x) => `DB_PASSWORD=${x}`),
  s('assignment', 'hunter2', (x) => `PGPASSWORD=${x} psql -h db.internal app`),
  s('assignment', r(8), (x) => `export GITHUB_TOKEN=${x}`),
  s('assignment', 'letmein!', (x) => `REDIS_PASS=${x}`),
  s('assignment', r(10), (x) => `mysql --password=${x} -u root`),
  s('labelled value', `${r(6)}9`, (x) => `secret: ${x}`),
  s('hex key', r(64, HEX), (x) => `signing key ${x}`),
  s('hex key', r(32, HEX), (x) => `AES_KEY=${x}`),
  s('random-looking token', r(40), (x) => `the deploy hook needs ${x}`),
  s('random-looking token', r(44, B64), (x) => `paste ${x} into the dashboard`),
  s('authorization header', Buffer.from(`admin:${r(10)}`).toString('base64'), (x) => `Authorization: Basic ${x}`),
  s('bearer token', r(36), (x) => `-H 'Authorization: Bearer ${x}'`),
  s('URL credentials', 'Pa55word', (x) => `git clone https://user:${x}@git.example.com/repo.git`),
  s('URL credentials', `${r(10)}`, (x) => `DATABASE_URL is postgres://app:${x}@db.internal:5432/app`),
  s('split by zero-width space', `ghp_${r(36)}`, (x) => `token ${x.slice(0, 18)}\u200b${x.slice(18)}`),
  s('split by zero-width joiner', `sk-proj-${r(40)}`, (x) => `key ${x.slice(0, 20)}\u200d${x.slice(20)}`),
  s('full-width letters', `ghp_${r(36)}`, (x) => `my token ${[...x].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join('')}`),
  s(
    'spaced out',
    `AKIA${r(16, UP)}`,
    (x) => `aws key ${x.slice(0, 4)} ${x.slice(4, 8)} ${x.slice(8, 12)} ${x.slice(12, 16)} ${x.slice(16)} in us-east-1`,
  ),
  s('password option', `S3${r(8)}`, (x) => `mysql -u root -p${x} app_production`),
  s('password option', `pw-${r(8)}`, (x) => `sshpass -p '${x}' ssh deploy@web1`),
  s('password option', `dckr_pat_${r(20)}`, (x) => `docker login -u ci -p ${x} registry.example.com`),
  s('password option', r(12), (x) => `wget --user=me --password ${x} https://files.example.com/a.tgz`),
  s('password option', r(14), (x) => `redis-cli -h cache -a ${x} ping`),
  s('cookie', `sess_${r(24)}`, (x) => `Cookie: session=${x}; theme=dark`),
  s('assignment', r(30, HEX), (x) => `heroku config:set SECRET_KEY_BASE=${x}`),
  s('URL credentials', `${r(12)}`, (x) => `mongodb+srv://admin:${x}@cluster0.example.net/app`),
  s('URL credentials', `${r(12)}`, (x) => `REDIS_URL=redis://:${x}@cache.internal:6379/0`),
  s('labelled value', `${r(20)}`, (x) => `curl -H "X-Api-Key: ${x}" https://api.example.com`),
  s('split by soft hyphen', `ghp_${r(36)}`, (x) => `token ${x.slice(0, 10)}\u00ad${x.slice(10)}`),
  s('split by word joiner', `glpat-${r(20)}`, (x) => `gitlab ${x.slice(0, 12)}\u2060${x.slice(12)}`),
  s(
    'mathematical letters',
    `ghp_${r(36, 'abcdefghijklmnopqrstuvwxyz')}`,
    (x) => `token ${[...x].map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(0x1d41a + c.charCodeAt(0) - 97) : c)).join('')}`,
  ),
  s('private-key', `-----BEGIN EC PRIVATE KEY-----\n${r(64, B64)}\n${r(40, B64)}==\n-----END EC PRIVATE KEY-----`, (x) => `ec key ${x}`),
  s('password field', 'tiger-lily', (x) => `MYSQL_ROOT_PASSWORD: ${x}`),
  s('netrc', `nr-${r(10)}`, (x) => `machine api.example.com login deploy password ${x}`),
  s('hex key', r(64, HEX), (x) => `wallet private key: 0x${x}`),
  s('passphrase with spaces', 'correct horse battery staple', (x) => `password: ${x}`),
  s('passphrase with spaces', 'purple monkey dishwasher 42', (x) => `my gpg passphrase is ${x}`),
  s('passphrase with spaces', 'correct horse battery staple', (x) => `the vault passphrase is ${x}`),
  s('password in words', 'Tr0ub4dor&3', (x) => `the wifi password is ${x}. Change it monthly.`),
  s('password in words', '55667788', (x) => `door pin code: ${x}`),
  // A password followed by more words, or right after the word `password`.
  s('password in words', 'Winter2024!', (x) => `the password is: ${x}`),
  s('password in words', `h${r(6)}2`, (x) => `db password ${x}`),
  s('password in words', `Xy7!${r(5)}`, (x) => `wifi password: ${x} at home`),
  s('password in words', `${r(9)}9`, (x) => `the router pwd was ${x} for the guest network`),
  s('passphrase with spaces', 'tangerine ostrich velvet 77', (x) => `passphrase = ${x}`),
];

/** The parts of a sample's secret that show a leak: its runs of 6+ characters not also elsewhere in the sample. */
function leakPieces(sample: SecretSample): string[] {
  const around = sample.text.replace(sample.secret, ' ');
  // A passphrase leaks by any of its words.
  if (/\s/.test(sample.secret)) return sample.secret.split(/\s+/).filter((w) => w.length >= 5 && !around.includes(w));
  // A run of letters only is a word of the format (`rubygems`, `github`), not of the secret.
  const pieces = sample.secret.split(/[\s\-_.:/=+]+/).filter((p) => p.length >= 6 && !/^[a-z]+$/i.test(p) && !around.includes(p));
  return pieces.length ? pieces : [sample.secret];
}

/**
 * Whether `stored` keeps the sample's secret as typed: looked for also with invisible characters
 * removed, compatibility forms folded (NFKC) and blanks removed, so a split or spaced-out key
 * that was kept whole counts.
 */
export function leaked(sample: SecretSample, stored: string): boolean {
  const plain = stored.normalize('NFKC').replace(/[\p{Cf}]/gu, '');
  const joined = plain.replace(/\s+/g, '');
  return leakPieces(sample).some((p) => plain.includes(p) || joined.includes(p));
}
