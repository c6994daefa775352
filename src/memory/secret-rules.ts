/**
 * Patterns of secrets, in the style of gitleaks' rule set: tokens with a known prefix or shape
 * (exact), and values after a label such as `password:` or `api_key=` (the label stays, the value
 * goes). Lookbehinds keep labels out of the match, so only the secret is replaced.
 */

export interface SecretRule {
  name: string;
  re: RegExp;
}

/** Tokens recognisable by their prefix or shape. Also tried with the spaces of a spaced-out key removed. */
export const TOKEN_RULES: SecretRule[] = [
  { name: 'private key', re: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)/g },
  { name: 'Anthropic key', re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { name: 'OpenAI key', re: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}/g },
  { name: 'AWS access key', re: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g },
  { name: 'GitHub token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})/g },
  { name: 'GitLab token', re: /\bgl(?:pat|dt|rt|ptt|cbt|oas|imt|agent|soat|ffct)-[A-Za-z0-9_-]{20,}/g },
  { name: 'Slack token', re: /\bxox[abposer]-[A-Za-z0-9-]{10,}/g },
  { name: 'Slack webhook', re: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,}/g },
  { name: 'Stripe key', re: /\b(?:sk|rk|pk|whsec)_(?:live|test|prod)_[A-Za-z0-9]{16,}/g },
  { name: 'Google API key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'Google OAuth token', re: /\b(?:ya29\.[0-9A-Za-z_-]{20,}|GOCSPX-[A-Za-z0-9_-]{28})/g },
  { name: 'Hugging Face token', re: /\b(?:hf_|api_org_)[A-Za-z0-9]{30,}/g },
  { name: 'npm token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { name: 'PyPI token', re: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g },
  { name: 'SendGrid key', re: /\bSG\.[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{20,}/g },
  { name: 'Twilio key', re: /\bSK[0-9a-fA-F]{32}\b/g },
  { name: 'Mailgun key', re: /\bkey-[0-9a-f]{32}\b/g },
  { name: 'DigitalOcean token', re: /\bdo[por]_v1_[a-f0-9]{64}\b/g },
  { name: 'Shopify token', re: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g },
  { name: 'Databricks token', re: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { name: 'Groq key', re: /\bgsk_[A-Za-z0-9]{48,}/g },
  { name: 'xAI key', re: /\bxai-[A-Za-z0-9]{60,}/g },
  { name: 'Replicate token', re: /\br8_[A-Za-z0-9]{37}\b/g },
  { name: 'Perplexity key', re: /\bpplx-[A-Za-z0-9]{40,}/g },
  { name: 'Telegram bot token', re: /\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b/g },
  { name: 'Discord bot token', re: /\b[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}/g },
  { name: 'age secret key', re: /\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b/g },
  { name: 'JWT', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
];

// Labels a secret value follows: `password is X`, `my pw: X`, `API_KEY=X`, `"client_secret": "X"`.
const LABEL = String.raw`\b(?:password|passwd|passphrase|passcode|pwd|pw|pass|pin code|secret(?:[_ -]?key)?|client[_ -]?secret|private[_ -]?key|api[_ -]?key|apikey|access[_ -]?key|access[_ -]?token|auth[_ -]?token|refresh[_ -]?token|session[_ -]?token|token|credentials?)\b`;

/** Values after a label, in a URL, or after `Bearer`. */
export const VALUE_RULES: SecretRule[] = [
  { name: 'AWS secret key', re: /(?<=aws.{0,20}(?:secret|key).{0,10}?[:=\s"']{1,4})[A-Za-z0-9/+]{40}\b/gi },
  { name: 'bearer token', re: /(?<=\bBearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g },
  { name: 'URL credentials', re: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+(?=@)/gi },
  { name: 'password', re: new RegExp(String.raw`(?<=${LABEL}["']?\s*(?:is|was|=|:|:=|->|=>)\s*["']?)[^\s"',;]{3,}`, 'gi') },
];
