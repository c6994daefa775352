import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/memory/secrets';

describe('redactSecrets', () => {
  it.each([
    ['OpenAI key is sk-proj-AbCdEf1234567890GhIjKlMnOpQrStUv', 'OpenAI key is [redacted]'],
    ['use sk-abcdefghijklmnopqrstuvwxyz123456 for the bot', 'use [redacted] for the bot'],
    ['anthropic sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'anthropic [redacted]'],
    ['AWS key AKIAIOSFODNN7EXAMPLE in us-east-1', 'AWS key [redacted] in us-east-1'],
    ['aws secret key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws secret key = [redacted]'],
    ['token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'token [redacted]'],
    ['slack xoxb-1234567890-abcdefghij', 'slack [redacted]'],
    ['stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'stripe [redacted]'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'jwt [redacted]'],
    ['the db password is hunter22', 'the db password is [redacted]'],
    ['PASSWORD=correct-horse', 'PASSWORD=[redacted]'],
    ['connect to postgres://admin:s3cr3tpw@db.example.com:5432/app', 'connect to postgres://admin:[redacted]@db.example.com:5432/app'],
    ['Authorization: Bearer abcdef0123456789abcdef0123', 'Authorization: Bearer [redacted]'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', '[redacted]'],
    ['random 9f8Qz2LkX7pW3mN5vB1cR6tY4hJ0gD8sA2eU', 'random [redacted]'],
  ])('redacts %j', (input, output) => {
    const r = redactSecrets(input);
    expect(r.text).toBe(output);
    expect(r.found.length).toBeGreaterThan(0);
  });

  it.each([
    'User prefers terse responses; no end-of-turn summaries.',
    'Current project: aish (TypeScript + Ink), deployed with make release.',
    'The commit 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345 fixed the parser.',
    'Use pnpm, not npm, in this repository.',
    'The password policy requires 12 characters.',
    'Prefers the token bucket algorithm for rate limits.',
    'https://github.com/owner/repo/blob/main/src/index.ts',
  ])('leaves ordinary text alone: %j', (input) => {
    expect(redactSecrets(input)).toEqual({ text: input, found: [] });
  });
});

// Synthetic samples in the shapes of gitleaks' rules (none is a live credential).
const b = (n: number, chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') =>
  Array.from({ length: n }, (_, i) => chars[(i * 7 + 3) % chars.length]).join('');
const hex = (n: number) => b(n, '0123456789abcdef');

describe('redactSecrets: more token shapes, labels and spaced-out keys', () => {
  it.each([
    [`hf token hf_${b(34)}`, 'Hugging Face token'],
    [`org api_org_${b(34)}`, 'Hugging Face token'],
    [`gitlab glrt-${b(20)}`, 'GitLab token'],
    [`hook https://hooks.slack.com/services/T0000/B0000/${b(24)}`, 'Slack webhook'],
    [`whsec_live_${b(24)}`, 'Stripe key'],
    [`google ya29.${b(40)}`, 'Google OAuth token'],
    [`pypi pypi-AgEIcHlwaS5vcmc${b(60)}`, 'PyPI token'],
    [`sendgrid SG.${b(22)}.${b(43)}`, 'SendGrid key'],
    [`twilio SK${hex(32)}`, 'Twilio key'],
    [`do dop_v1_${hex(64)}`, 'DigitalOcean token'],
    [`shopify shpat_${hex(32)}`, 'Shopify token'],
    [`groq gsk_${b(52)}`, 'Groq key'],
    [`telegram 123456789:AA${b(33)}`, 'Telegram bot token'],
    ['my pw: Tr0ub4dor&3', 'password'],
    ['the wifi passcode is 55667788', 'password'],
    ['client_secret = "d8f7a6s5d4f3g2h1"', 'password'],
    ['"api_key": "abc123def456ghi789"', 'password'],
    [`sk-proj-${b(8)} ${b(8)} ${b(8)} ${b(8)}`, 'OpenAI key (spaced out)'],
    ['my aws key AKIA 1234 5678 ABCD EFGH in us-east-1', 'AWS access key (spaced out)'],
    [`ghp_${b(12)} ${b(12)} ${b(12)} please`, 'GitHub token (spaced out)'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----', 'private key'],
  ])('redacts %j', (input, name) => {
    const r = redactSecrets(input);
    expect(r.found).toContain(name);
    expect(r.text).toContain('[redacted]');
    // Nothing of the secret itself is left: no run of 8+ of its characters survives.
    const secret = input.replace(
      /^.*?(?:is |: |= |=|token |key |hf token |org |gitlab |hook |google |pypi |sendgrid |twilio |do |shopify |groq |telegram |my aws key )/,
      '',
    );
    for (const piece of secret.split(/[\s"]+/).filter((p) => p.length >= 8 && !/^(please|us-east-1)$/.test(p)))
      expect(r.text).not.toContain(piece);
  });

  it.each([
    'Run the tests with npm run test:unit before every commit.',
    'The build takes 3 min 20 s on CI and 45 s locally.',
    'Use port 8080 for the dev server and 5432 for postgres.',
    'Keys live in the vault; never paste them into chat.',
    'The token limit of the model is 128000 tokens.',
    'Deploy to us east 1 and eu west 2 regions only.',
    'The password field must be at least twelve characters long.',
    'He prefers tabs of width 4 in Go code and 2 in TypeScript.',
    'Version 1 2 3 of the API is deprecated since 2024.',
    'Ask before running git push --force on main.',
  ])('leaves ordinary text alone: %j', (input) => {
    expect(redactSecrets(input)).toEqual({ text: input, found: [] });
  });
});
