import { describe, expect, it } from 'vitest';
import { redactJsonText } from '../../src/util/secrets/json';
import { redactSecrets } from '../../src/util/secrets/redact';

describe('redactSecrets', () => {
  it.each([
    ['OpenAI key is sk-proj-AbCdEf1234567890GhIjKlMnOpQrStUv', 'OpenAI key is [redacted]'],
    ['anthropic sk-ant-api03-abcdefghijklmnopqrstuvwxyz', 'anthropic [redacted]'],
    ['AWS key AKIAIOSFODNN7EXAMPLF in us-east-1', 'AWS key [redacted] in us-east-1'],
    ['aws secret key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ', 'aws secret key = [redacted]'],
    ['token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB', 'token [redacted]'],
    ['stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'stripe [redacted]'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'jwt [redacted]'],
    ['the db password is hunter22', 'the db password is [redacted]'],
    ['PASSWORD=correct-horse', 'PASSWORD=[redacted]'],
    // The kinds an attack found stored as typed.
    ['DB_PASSWORD=hunter2', 'DB_PASSWORD=[redacted]'],
    ['PGPASSWORD=s3cret psql -h db', 'PGPASSWORD=[redacted] psql -h db'],
    ['export GITHUB_TOKEN=abc123', 'export GITHUB_TOKEN=[redacted]'],
    ['hex key 4f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f', 'hex key [redacted]'],
    ['deploy with 9f8Qz2LkX7pW3mN5vB1cR6tY4hJ0gD8sA2eU', 'deploy with [redacted]'],
    ['Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted]'],
    ['curl https://user:pass@example.com/x', 'curl https://user:[redacted]@example.com/x'],
    ['ghp_0123456789abcdef\u200bghijklmnopqrstuvwxyzAB is mine', '[redacted] is mine'],
    ['password: correct horse battery staple', 'password: [redacted]'],
    ['connect to postgres://admin:s3cr3tpw@db.example.com:5432/app', 'connect to postgres://admin:[redacted]@db.example.com:5432/app'],
    ['Authorization: Bearer abcdef0123456789abcdef0123', 'Authorization: Bearer [redacted]'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', '[redacted]'],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut short)', '[redacted]'],
    ['my pw: Tr0ub4dor&3', 'my pw: [redacted]'],
    ['client_secret = "d8f7a6s5d4f3g2h1"', 'client_secret = "[redacted]"'],
    ['my aws key AKIA 1234 5678 ABCD EFGH in us-east-1', 'my aws key [redacted] in us-east-1'],
    ['ｇｈｐ＿０１２３４５６７８９ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚＡＢ ok', '[redacted] ok'],
    ['MYSQL_ROOT_PASSWORD: secret', 'MYSQL_ROOT_PASSWORD: [redacted]'],
    ['my passphrase is correct horse battery staple', 'my passphrase is [redacted]'],
    ['machine github.com login me password hunter2', 'machine github.com login me password [redacted]'],
    ['mysql -u root -pS3cretPw app', 'mysql -u root -p[redacted] app'],
    ['wget --password s3cr3t https://x', 'wget --password [redacted] https://x'],
    ['Cookie: session=abc123def456', 'Cookie: [redacted]'],
  ])('redacts %j', (input, output) => {
    const r = redactSecrets(input);
    expect(r.text).toBe(output);
    expect(r.found.length).toBeGreaterThan(0);
  });

  it.each([
    'User prefers terse responses; no end-of-turn summaries.',
    'Current project: aish (TypeScript + Ink), deployed with make release.',
    'The commit 3f2a9c1b7d4e5f60718293a4b5c6d7e8f9012345 fixed the parser.',
    'request 123e4567-e89b-42d3-a456-426614174000 timed out',
    'docker pull node@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
    'echo aGVsbG8gd29ybGQsIHRoaXMgaXMgYSBsb25nZXIgdGVzdCBtZXNzYWdl | base64 -d',
    'https://docs.google.com/document/d/1aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789abcdEFG/edit',
    'Use pnpm, not npm, in this repository.',
    'The password policy requires 12 characters.',
    'The password is required.',
    'the password is correct',
    'The password is stored in the vault.',
    'export OPENAI_API_KEY=sk-…, or point a preset at a local server',
    'mysql -p app',
    'Prefers the token bucket algorithm for rate limits.',
    'the key: press Ctrl-C to stop',
    'const authToken = await getToken(config);',
    'DB_PASSWORD=${DB_PASSWORD} docker compose up',
    'token: ${{ secrets.GITHUB_TOKEN }}',
    'https://github.com/owner/repo/blob/main/src/index.ts',
    'Keys live in the vault; never paste them into chat.',
    'The token limit of the model is 128000 tokens.',
  ])('leaves ordinary text alone: %j', (input) => {
    expect(redactSecrets(input)).toEqual({ text: input, found: [] });
  });

  it('names what it found once per secret, readable names first', () => {
    expect(redactSecrets('token ghp_R7tK2mQ9xLw4ZpV8nB3cY6hJ1sD5fG0aE2uI').found).toEqual(['GitHub token']);
  });

  it('keeps the text outside a secret exactly, invisible and full-width characters included', () => {
    const r = redactSecrets('ｎｏｔｅ\u200b: PGPASSWORD=s3cr\u200bet ok');
    expect(r.text).toBe('ｎｏｔｅ\u200b: PGPASSWORD=[redacted] ok');
  });

  it('maps back through characters NFKC makes longer (U+FDFA becomes 18 letters)', () => {
    expect(redactSecrets('\uFDFA note: DB_PASSWORD=hunter2 \uFDFA ok').text).toBe('\uFDFA note: DB_PASSWORD=[redacted] \uFDFA ok');
  });

  it('is idempotent: redacting redacted text changes nothing', () => {
    const once = redactSecrets('DB_PASSWORD=hunter2 and Authorization: Bearer abcdef0123456789abcdef0123').text;
    expect(redactSecrets(once)).toEqual({ text: once, found: [] });
  });
});

describe('redactJsonText', () => {
  it('redacts the strings of a JSON document and keeps it JSON', () => {
    const out = redactJsonText(
      JSON.stringify({ kind: 'fact', content: 'DB_PASSWORD=hunter2', nested: [{ k: 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' }] }),
    );
    expect(JSON.parse(out)).toEqual({ kind: 'fact', content: 'DB_PASSWORD=[redacted]', nested: [{ k: '[redacted]' }] });
  });

  it('returns JSON without secrets unchanged, and redacts text that is not JSON', () => {
    const clean = '{ "kind": "fact", "content": "likes tea" }';
    expect(redactJsonText(clean)).toBe(clean);
    expect(redactJsonText('{"content": "PGPASSWORD=abc123')).toBe('{"content": "PGPASSWORD=[redacted]');
  });
});
