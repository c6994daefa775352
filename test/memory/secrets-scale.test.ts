/**
 * Redaction is linear and never recursive: a 16 MB input and 1 MB runs of a token's alphabet are
 * redacted without a stack overflow (an 8 MB item once crashed import), and a secret at the end of
 * them is still found. Timings are in bench/secrets.ts, not here.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/util/secrets/redact';

const MB = 1 << 20;
const SECRET = 'ghp_R7tK2mQ9xLw4ZpV8nB3cY6hJ1sD5fG0aE2uI';
const fill = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

describe('redaction at scale', () => {
  it('a 16 MB note of developer text, secrets at both ends', { timeout: 120_000 }, () => {
    const body = fill('commit 3f2a9c1b fixed the auth token cache; see https://example.com/a?b=1 and PASSWORD=${PW}\n', 16 * MB);
    const r = redactSecrets(`${SECRET} ${body} DB_PASSWORD=hunter2`);
    expect(r.text.startsWith('[redacted] commit')).toBe(true);
    expect(r.text.endsWith('DB_PASSWORD=[redacted]')).toBe(true);
    expect(r.text).not.toContain(SECRET);
  });

  it.each([
    ['base64', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'],
    ['hex', '0123456789abcdef'],
    ['one letter', 'a'],
    ['keyword and separator', 'key='],
    ['a token prefix', 'ghp_'],
    ['pieces of a spaced-out key', 'AKIA '],
    ['a password label', 'password: '],
    ['curl with a user', 'curl -u '],
    ['URL credentials', 'https://a:'],
    ['private key header', '-----BEGIN RSA PRIVATE KEY-----\n'],
    ['zero-width spaces', 'ab\u200b'],
  ])('a 1 MB run of %s', { timeout: 120_000 }, (_name, unit) => {
    const r = redactSecrets(`${fill(unit, MB)} ${SECRET}`);
    expect(r.text).not.toContain(SECRET);
    expect(r.text.length).toBeGreaterThan(0);
  });

  it('an 8 MB line of one random-looking token is one redaction', { timeout: 120_000 }, () => {
    let s = '';
    for (let i = 0; s.length < 8 * MB; i++) s += 'Zq3Vb8Lm1Xc7Rt5Yp2Nw9Kd4Hs6Jf0Ga'[(i * 7 + (i >> 5)) % 32];
    expect(redactSecrets(`key ${s} end`).text).toBe('key [redacted] end');
  });
});
