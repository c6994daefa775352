/** A password typed in a sentence: exactly the value is redacted; the words and separators around it stay. */
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/util/secrets/redact';

describe('passwords in words', () => {
  it.each([
    ['the password is: Winter2024!', 'the password is: [redacted]'],
    ['the password is Winter2024! Do not share it.', 'the password is [redacted] Do not share it.'],
    ['db password hunter2', 'db password [redacted]'],
    ['my pwd hunter2! keep it', 'my pwd [redacted] keep it'],
    ['wifi password: Xy7!pq at home', 'wifi password: [redacted] at home'],
    ['wifi password: Xy7!pq at home, ok?', 'wifi password: [redacted] at home, ok?'],
    ['password -> abc123 for the db', 'password -> [redacted] for the db'],
    ['the router pwd is Xy7pq9 on the sticker', 'the router pwd is [redacted] on the sticker'],
    ['the wifi password was tr0ub4dor, remember it', 'the wifi password was [redacted], remember it'],
    ['password: hunter2.', 'password: [redacted].'],
    ['passphrase = correct horse battery staple', 'passphrase = [redacted]'],
    ['password = hunter22  # the old one', 'password = [redacted]  # the old one'],
    ['the passphrase is correct horse battery staple', 'the passphrase is [redacted]'],
    ['my passwd was S3cure.pw; the other one expired', 'my passwd was [redacted]; the other one expired'],
    ['the wifi password for the guest network is Xy7!pq9 at home', 'the wifi password for the guest network is [redacted] at home'],
    ['door pin: 4821 for the back door', 'door pin: [redacted] for the back door'],
    // The words after a generated one-word value stay, whatever they are.
    ['password: Hunter2 - ask bob', 'password: [redacted] - ask bob'],
    ['passphrase: blue-sky-42 ok', 'passphrase: [redacted] ok'],
    ['password: hunter2 expires friday', 'password: [redacted] expires friday'],
    // Several on one line: each value, and the fields between them, kept apart.
    ['user=bob password=hunter2 token=abcdef123456 done', 'user=bob password=[redacted] token=[redacted] done'],
    ['user=bob password=secret user=alice', 'user=bob password=[redacted] user=alice'],
    // Quoted values, in backticks too (Markdown notes).
    ['the password is `Xy7!pq` for staging', 'the password is `[redacted]` for staging'],
    ["password 'hunter2' at home", "password '[redacted]' at home"],
    // A dash between the word and the value, as notes write it.
    ['Password - Hunter2!', 'Password - [redacted]'],
    ['wifi password — Xy7!pq at home', 'wifi password — [redacted] at home'],
    ['password "correct horse battery" at home', 'password "[redacted]" at home'],
  ])('%s', (typed, stored) => {
    expect(redactText(typed)).toBe(stored);
  });

  it.each([
    'reset your password tomorrow',
    'the password SHA256 hash is stored',
    'password manager v2',
    'passwords must have 12 characters',
    'the password is set for the db',
    'the password was changed last week',
    'the admin password is unknown, reset it',
    'the password for the account is required',
    'a password of 3 words is easier to remember',
    'if password == expected: return',
    'password = getPassword()',
    'export OPENAI_API_KEY=sk-…, or point a preset at a local server',
    'password - required for login',
    'password-protected files stay encrypted',
    'the password - which I forgot - is long',
    'password: `<your password>`',
    'password: `$DB_PASS` here',
  ])('%s stays as typed', (text) => {
    expect(redactText(text)).toBe(text);
  });
});
