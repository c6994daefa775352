/** Secrets typed or pasted into memory are stored redacted, by the REPL's :remember and by aish memory add. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const memFile = (home: string) => join(home, '.local', 'share', 'aish', 'memory.jsonl');
const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };

const SECRETS = {
  openai: 'sk-proj-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm',
  github: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  aws: 'AKIAZ7Q2W4E6R8T0Y3U5',
  jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhaXNoLXRlc3QiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLW5vdC1yZWFsLWF0LWFsbA',
};
const PEM = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  '-----END RSA PRIVATE KEY-----',
].join('\n');

describe('secrets never stored', () => {
  it(':remember stores API keys, tokens and JWTs redacted, and says what it redacted', async () => {
    const home = tmpDir();
    // Different texts: once redacted, identical ones would be one item (nothing is remembered twice).
    const input =
      Object.entries(SECRETS)
        .map(([name, s]) => `:remember the ${name} deploy credential is ${s} ok`)
        .join('\n') + `\n:remember ${PEM.split('\n')[0]} ${PEM.split('\n')[1]}\n`;
    const r = await runAish([], { home, env, input });
    expect(r.code).toBe(0);
    const file = readFileSync(memFile(home), 'utf8');
    for (const s of Object.values(SECRETS)) expect(file).not.toContain(s.slice(4, 20));
    expect(file).not.toContain('MIIEpAIBAAKCAQEA');
    expect(file.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(5);
    expect(r.stdout).toMatch(/memory: added 1 \(fact\) — redacted: OpenAI key/);
    expect(r.stdout).toMatch(/redacted: JWT/);
  });

  it('aish memory add and edit store a pasted PEM private key redacted', async () => {
    const home = tmpDir();
    const add = await runAish(['memory', 'add', 'fact', `server key:\n${PEM}`], { home, env });
    expect(add.code).toBe(0);
    expect(add.stdout).toBe('added 1 (fact) — redacted: private key\n');
    const edit = await runAish(['memory', 'edit', '1', `now ${SECRETS.github}`], { home, env });
    expect(edit.stdout).toBe('replaced 1 with 2 (fact) — redacted: GitHub token\n');
    const file = readFileSync(memFile(home), 'utf8');
    expect(file).not.toContain('MIIEpAIBAAKCAQEA');
    expect(file).not.toContain(SECRETS.github.slice(4));
  });
});
