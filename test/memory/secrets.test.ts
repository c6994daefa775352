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
