/**
 * aish's own rules, beside gitleaks': the forms people type rather than commit — assignments with
 * short values (`DB_PASSWORD=…`, `PGPASSWORD=…`), `password is …`, a passphrase with spaces, HTTP
 * Basic/Bearer headers, credentials in URLs, labelled hex keys, truncated private keys — and token
 * shapes gitleaks matches only in their full, checksummed form. Each names the keywords that must
 * occur nearby (lower case) so it runs only where it can match.
 */

export interface ExtraRule {
  id: string;
  /** Global, with indices (`gd`); the secret is the first non-empty group, else the whole match. */
  re: RegExp;
  keywords: string[];
  /** A further test of the secret, for forms that ordinary prose also takes. */
  accept?: (secret: string) => boolean;
  /** A token shape (see Rule.pieces). */
  pieces?: boolean;
}

const PLACEHOLDER =
  /^(?:\$\{?[A-Za-z_]\w*\}?|\$\(.*\)|%\w+%|\{\{.*\}\}|<[^>]*>|\*+|x+|\.+|true|false|null|nil|none|undefined|required|optional|yes|no|empty|unset|changeme|example|redacted)$/i;

/** Words that start prose after `password is` ("… is required", "… is stored in the vault"). */
const PROSE_START =
  /^(?:set|stored|saved|kept|used|required|needed|missing|empty|wrong|incorrect|invalid|expired|correct|valid|changed|reset|hashed|encrypted|long|short|weak|strong|same|different|optional|there|here|also|still|only|just|being|never|always|usually|probably|ok|fine|case|unknown|see|ask|check|easier|harder|better|worse|longer|shorter|safer|stronger|weaker|more|less|very|quite|enough)\b/i;
/** Function words: prose wherever they stand first or second. */
const FUNCTION_WORD =
  /^(?:a|an|the|to|too|not|no|now|in|on|at|for|from|of|by|with|my|your|our|their|his|her|its|this|that|what|which|and|or|but|as|be|been|than|then|all|some|any|each|every)$/i;

/**
 * Whether a value after `password is` reads as prose: a function word first, or a prose word that
 * stands alone or before a function word. "correct horse battery staple" is a passphrase;
 * "correct" and "stored in the vault" are prose.
 */
function prose(s: string): boolean {
  const [first = '', second] = s.trim().split(/\s+/);
  if (FUNCTION_WORD.test(first)) return true;
  return PROSE_START.test(first) && (second === undefined || FUNCTION_WORD.test(second));
}

/** After `is`/`was`, a past participle also says what was done to it: "was changed last week", "is printed on the router". */
const proseAfterIs = (s: string) => prose(s) || /^[a-z]{3,}ed$/.test(s.trim().split(/\s+/)[0] ?? '');

/** Code on the right of `=`: a call, a keyword, a reference to another variable or setting. */
const CODE =
  /\(|^(?:await|new|function|async|require|import|this|self|yield|typeof|lambda)$|^(?:process\.env|os\.environ|os\.getenv|System\.getenv|ENV\[)|^[A-Za-z_$][A-Za-z_$]*(?:\.[A-Za-z_$][A-Za-z_$]*)+$/;

/** Docs' stand-ins: `sk-…`, `<key>…`, `VALUE`, `YOUR_API_KEY`, a value quoted in backticks. */
const STAND_IN = /(?:…|\.\.\.)$|^[A-Z][A-Z_]+$|`/;

const notPlaceholder = (s: string) => {
  const t = s.trim();
  // `<your password>` cut at its blank is still a stand-in.
  return !PLACEHOLDER.test(t) && !/^</.test(t) && !CODE.test(t) && !STAND_IN.test(t) && !t.includes('[redacted') && !t.includes('${');
};
/** A value in a `name: value` line of prose or YAML: only when it does not read as a word. */
const looksGenerated = (s: string) =>
  notPlaceholder(s) && (/\d/.test(s) || /[^A-Za-z\s]/.test(s) || (/[a-z]/.test(s) && /[A-Z]/.test(s.slice(1))));

const LONG_NAME = String.raw`password|passwd|passphrase|passcode|secret|token|credentials?|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|auth[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key`;
const SHORT_NAME = String.raw`pass|pwd|pw|pin|key|auth|pat`;
/**
 * The end of a variable, option or field name that ends in a secret word: DB_PASSWORD, PGPASSWORD,
 * --api-key, "client_secret". What comes before the word does not matter, so it is not matched
 * (matching it would cost a step per character of every name).
 */
/** What may follow the secret word and still name the secret itself: SECRET_KEY_BASE, TOKEN_VALUE. */
const SUFFIX = String.raw`(?:[_.-](?:base|value|string|str|data|b64|base64|hex|plain|raw))?`;
const NAME = String.raw`(?:(?:${LONG_NAME})|(?<![A-Za-z0-9])(?:${SHORT_NAME}))${SUFFIX}(?![\w])`;
/** A name whose value is a password, whatever it looks like. */
const PASSWORD_NAME = String.raw`(?:password|passwd|passphrase|passcode|(?<![A-Za-z0-9])(?:pwd|pass|pw))${SUFFIX}(?![\w])`;
/** A value, quoted or bare; `stop` ends a bare one (`&` after `=`: the next parameter of a URL query). */
const value = (stop: string) => {
  const bare = String.raw`[^\s"'\x60;,)}\]${stop}]`;
  // A full stop that ends the sentence is not the value's ("password: hunter2." keeps its "."); an ellipsis is.
  return String.raw`(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|(${bare}{1,512})(?<!(?<!\.)\.))`;
};
const KEYWORDS = ['pass', 'pwd', 'pw', 'pin', 'secret', 'token', 'credential', 'key', 'auth', 'pat'];

/**
 * Where a password typed in a sentence ends: at the end of the line, before `.`, `,`, `;` or `:`
 * that ends a clause, or after `!`/`?` before a blank — those two are kept in the value, since
 * `Winter2024!` is a password and leaking its tail is worse than redacting an exclamation mark; or
 * before a `#`/`//` comment.
 */
const PW_END_AT = String.raw`[ \t]*(?:$|[.,;:](?:[ \t]|$))|(?<=[!?])[ \t]|[ \t]+(?:#|//)[ \t]`;
const PW_END = `(?=${PW_END_AT})`;
/** Words that start what is said after a one-word password ("X at home", "hunter2 for the db"). */
const PW_TAIL = String.raw`(?=[ \t]+(?:at|for|on|in|to|from|with|and|but|or|so|because|since|when|while|if|until|unless|which|that|then|please|via|by|of|now|though)\b)`;
/** A one-word password before another `name=` field, or a generated word (a digit, a symbol) before more words: "Hunter2 - ask bob". */
const PW_ONE_WORD = String.raw`([^\s]\S{0,255}?)(?=[ \t]+[A-Za-z_][\w.-]{0,64}[ \t]*[=:])|([^\s"'\x60]*[\d!#-&(-/:-@[-^{-~][^\s"'\x60]*)(?=[ \t]+\S)`;
/** Quoted (backticks too: notes write values as code); one word, then a clause's end or what follows; else a passphrase to the clause's end. */
const PW_VALUE = String.raw`(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|\x60([^\x60\n]{1,256})\x60|([^\s]\S{0,255}?)${PW_END}|([^\s]\S{0,255})${PW_TAIL}|${PW_ONE_WORD}|([^\s][^\n]{0,255}?)${PW_END})`;
const PW_WORD = String.raw`\b(?:password|passphrase|passcode|passwd|pwd|pw|pin(?: code)?)s?\b`;

function passwordRe(separator: string): RegExp {
  return new RegExp(String.raw`${PW_WORD}[ \t]*(?:${separator})[ \t]*${PW_VALUE}`, 'dgim');
}

/** Tokens that name a scheme or a version, not a password: "password SHA256 hashes", "password v2 flow". */
const SCHEME =
  /^(?:sha|md|aes|rsa|des|bcrypt|argon|pbkdf|scrypt|hmac|crc|utf|v|x|no|2fa|mfa|otp|ssh|gpg|pgp|ldap|http|tls|ssl)[\d.-]*\w?$/i;

/** Rules that find a secret by its label or context, not its shape (gitleaks' generic rule too). */
export const LABEL_FORMS = new Set([
  'assignment',
  'labelled value',
  'password',
  'hex key',
  'authorization header',
  'bearer token',
  'basic auth',
  'generic-api-key',
]);

const token = (id: string, re: RegExp, keywords: string[]): ExtraRule => ({ id, re, keywords, pieces: true });

export const EXTRA_RULES: ExtraRule[] = [
  // Code and shell: NAME=value, NAME := value, NAME => value (short values too).
  {
    id: 'assignment',
    re: new RegExp(`${NAME}["']?[ \\t]*(?::=|=>|=)[ \\t]*${value('&')}`, 'gdi'),
    keywords: KEYWORDS,
    accept: (s) => s.length >= 3 && notPlaceholder(s),
  },
  // YAML, JSON and notes: NAME: value, where the value does not read as an ordinary word.
  {
    id: 'labelled value',
    re: new RegExp(`${NAME}["']?[ \\t]*:[ \\t]*${value('')}`, 'gdi'),
    keywords: KEYWORDS,
    accept: (s) => s.length >= 4 && looksGenerated(s),
  },
  // A password-named field (`MYSQL_ROOT_PASSWORD: secret`, `"password": "hunter"`): any value.
  {
    id: 'password',
    re: new RegExp(`${PASSWORD_NAME}["']?[ \\t]*:[ \\t]*${value('')}`, 'gdi'),
    keywords: ['pass', 'pwd', 'pw'],
    accept: (s) => s.length >= 3 && notPlaceholder(s) && !prose(s),
  },
  // A .netrc line: `machine HOST login USER password PASSWORD`.
  {
    id: 'password',
    re: /\bmachine[ \t]+\S+[ \t]+login[ \t]+\S+[ \t]+password[ \t]+(\S+)/dg,
    keywords: ['machine'],
    accept: notPlaceholder,
  },
  // A password or passphrase, spaces and all, to the end of the line or sentence.
  {
    id: 'password',
    re: passwordRe(String.raw`:|->|=(?!=)|[-–—](?=[ \t])`),
    keywords: ['pass', 'pwd', 'pin'],
    accept: (s) => s.length >= 3 && notPlaceholder(s) && !prose(s),
  },
  {
    id: 'password',
    // "the password is: …", and "the password for the guest network is …".
    re: passwordRe(String.raw`(?:(?:for|of|on|to|at|in)\b[^\n.,;:!?]{1,40}?[ \t])?(?:\bis\b|\bwas\b)[ \t]*[:=]?`),
    keywords: ['pass', 'pwd', 'pin'],
    accept: (s) => s.length >= 3 && notPlaceholder(s) && !proseAfterIs(s),
  },
  // "db password hunter2": the word right after, when it reads as generated (a digit, a symbol,
  // mixed case), not a word, a scheme or a version ("password manager", "password SHA256 hashes").
  {
    id: 'password',
    re: new RegExp(
      String.raw`\b(?:password|passphrase|passcode|passwd|pwd)\b[ \t]+(?!(?:is|was)\b)([^\s"'\x60(\[{<][^\s"'\x60]{3,255}?)(?=[ \t]|${PW_END_AT})`,
      'dgim',
    ),
    keywords: ['pass', 'pwd'],
    accept: (s) => looksGenerated(s) && !SCHEME.test(s) && !/^\d{1,3}$/.test(s) && !/^[\d.,%]+$/.test(s),
  },
  // `password "correct horse"`, `pwd 'hunter2'`: a quoted value right after the word is the password.
  {
    id: 'password',
    re: /\b(?:password|passphrase|passcode|passwd|pwd)\b[ \t]+(?:"([^"\n]{3,256})"|'([^'\n]{3,256})'|\x60([^\x60\n]{3,256})\x60)/dgi,
    keywords: ['pass', 'pwd'],
    accept: (s) => notPlaceholder(s) && !prose(s) && !SCHEME.test(s),
  },
  // "the api key is …", "token was …": one word that does not read as prose.
  {
    id: 'labelled value',
    re: /\b(?:api[ _-]?key|key|token|secret|credentials?)\s+(?:is|was)\s+["']?([^\s"'\x60,;]{6,512})/dgi,
    keywords: ['key', 'token', 'secret', 'credential'],
    accept: looksGenerated,
  },
  // A hex key next to its label: "key 4f3c…", "signing key: 00112233…".
  {
    id: 'hex key',
    re: /\b(?:key|secret|token|hmac|salt|seed)s?\b[\s:=>"'-]{1,6}(?:0x)?([0-9a-fA-F]{16,512})\b/dgi,
    keywords: ['key', 'secret', 'token', 'hmac', 'salt', 'seed'],
  },
  // Command-line options: `--password VALUE` (the `=` form is an assignment), `mysql -pVALUE`,
  // `sshpass -p VALUE`, `docker login -p VALUE`.
  {
    id: 'password option',
    re: /(?<![\w-])--(?:password|passwd|pass|passphrase|token|api-key|apikey|secret|client-secret|access-token|auth-token)[ \t]+("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'-][^\s"']{0,255})/dgi,
    keywords: ['--pass', '--token', '--api', '--secret', '--client-secret', '--access-token', '--auth-token'],
    accept: notPlaceholder,
  },
  {
    id: 'password option',
    re: /\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"']{1,256})/dg,
    keywords: ['mysql', 'mariadb'],
    accept: notPlaceholder,
  },
  {
    id: 'password option',
    re: /\b(?:sshpass|docker[ \t]+login|podman[ \t]+login|helm[ \t]+registry[ \t]+login)\b[^\n|;&]{0,200}?[ \t]-p[ \t]*("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'-][^\s"']{0,255})/dg,
    keywords: ['sshpass', 'login'],
    accept: notPlaceholder,
  },
  {
    id: 'password option',
    re: /\bredis-cli\b[^\n|;&]{0,200}?[ \t]-a[ \t]+("[^"\n]{1,256}"|'[^'\n]{1,256}'|[^\s"'-][^\s"']{0,255})/dg,
    keywords: ['redis-cli'],
    accept: notPlaceholder,
  },
  // A Cookie header carries session ids: its value, whole.
  {
    id: 'cookie',
    re: /\b(?:set-)?cookie["']?[ \t]*:[ \t]*([^\n"']{8,4096})/dgi,
    keywords: ['cookie'],
    accept: (s) => /\w=\S/.test(s) && notPlaceholder(s),
  },
  // HTTP authorization headers.
  {
    id: 'authorization header',
    re: /\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:digest\s+([^\n"']{4,1024})|(?:(?:basic|bearer|token|negotiate|ntlm|apikey|key|sso-key|hmac|aws4-hmac-sha256)\s+)?([^\s"'\x60]{4,4096}))/dgi,
    keywords: ['authorization'],
    // The scheme alone (`Authorization: Basic …` in docs) is not a credential.
    accept: (s) => notPlaceholder(s) && !/^(?:basic|bearer|token|digest|negotiate|ntlm)$/i.test(s),
  },
  {
    id: 'bearer token',
    re: /\bbearer\s+([A-Za-z0-9._~+/-]{8,4096}=*)/dgi,
    keywords: ['bearer'],
    accept: (s) => /\d/.test(s) && notPlaceholder(s),
  },
  {
    id: 'basic auth',
    re: /\bbasic\s+([A-Za-z0-9+/]{8,4096}={0,2})(?![\w+/=])/dg,
    keywords: ['basic'],
    accept: (s) => /\d|=$/.test(s) && Buffer.from(s, 'base64').toString('latin1').includes(':'),
  },
  // scheme://user:password@host — the password, however simple.
  {
    id: 'URL credentials',
    re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s/?#@:]{0,128}:([^\s/?#]{1,256})@/dgi,
    keywords: ['://'],
    accept: (s) => !/^\$\{?\w+\}?$/.test(s),
  },
  { id: 'AWS secret key', re: /aws.{0,20}(?:secret|key).{0,10}?[:=\s"']{1,4}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])/dgi, keywords: ['aws'] },
  // A private key cut short (no END line) is still a private key.
  {
    id: 'private key',
    re: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|(?![\s\S]))/dgi,
    keywords: ['-----begin'],
  },
  token('AWS access key', /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/dg, [
    'a3t',
    'akia',
    'asia',
    'abia',
    'acca',
    'agpa',
    'aida',
    'aroa',
    'anpa',
    'anva',
    'apka',
  ]),
  token('Anthropic key', /\bsk-ant-[A-Za-z0-9_-]{20,512}/dg, ['sk-ant-']),
  token('OpenAI key', /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,512}/dg, ['sk-']),
  token('GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})/dg, [
    'ghp_',
    'gho_',
    'ghu_',
    'ghs_',
    'ghr_',
    'github_pat_',
  ]),
  token('GitLab token', /\bgl(?:pat|dt|rt|ptt|cbt|oas|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,255}/dg, ['gl']),
  token('Slack token', /\bxox[abposer]-[A-Za-z0-9-]{10,255}/dg, ['xox']),
  token('Stripe key', /\b(?:sk|rk|pk|whsec)_(?:live|test|prod)_[A-Za-z0-9]{16,255}/dg, ['_live_', '_test_', '_prod_']),
  token('Google OAuth token', /\b(?:ya29\.[0-9A-Za-z_-]{20,2048}|GOCSPX-[A-Za-z0-9_-]{28})/dg, ['ya29.', 'gocspx-']),
  token('Hugging Face token', /\b(?:hf_|api_org_)[A-Za-z0-9]{30,64}/dg, ['hf_', 'api_org_']),
  token('npm token', /\bnpm_[A-Za-z0-9]{36}\b/dg, ['npm_']),
  token('PyPI token', /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1024}/dg, ['pypi-']),
  token('SendGrid key', /\bSG\.[A-Za-z0-9_-]{20,128}\.[A-Za-z0-9_-]{20,128}/dg, ['sg.']),
  token('Mailgun key', /\bkey-[0-9a-f]{32}\b/dg, ['key-']),
  token('Groq key', /\bgsk_[A-Za-z0-9]{48,128}/dg, ['gsk_']),
  token('xAI key', /\bxai-[A-Za-z0-9]{60,128}/dg, ['xai-']),
  token('Replicate token', /\br8_[A-Za-z0-9]{37}\b/dg, ['r8_']),
  token('Perplexity key', /\bpplx-[A-Za-z0-9]{40,128}/dg, ['pplx-']),
  token('Telegram bot token', /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/dg, [':aa']),
  token('JWT', /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/dg, ['eyj']),
];
