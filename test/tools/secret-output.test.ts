// The output check behind unsandboxed steps nobody approved (src/tools/secret-output.ts): what the
// credential stores and aish's secret variables hold is found in a step's output, wherever the step
// read it from; ordinary output, histories and aish's session data are not taken for secrets.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gatherSecretValues, leakedFrom } from '../../src/tools/secret-output';
import { tmpDir } from '../helpers/tmp';

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function setUp() {
  const home = tmpDir('secret-output-');
  const project = join(home, 'project');
  put(join(home, '.aws/credentials'), '[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY\n');
  put(
    join(home, '.ssh/id_ed25519'),
    '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\n',
  );
  put(join(home, '.netrc'), 'machine example.com login me password hunter2x9\n');
  put(join(home, '.bash_history'), 'npm install lodash@4.17.21\n');
  put(join(project, '.env'), 'API_KEY=sk-proj-0123abcd\n');
  put(join(home, 'conf/aish/config.ts'), "export default { apiKey: 'sk-cfg-5678efgh' };\n");
  put(join(home, 'data/aish/sessions/s1.jsonl'), '{"said":"version 4.17.21 of lodash"}\n');
  const values = await gatherSecretValues({
    project,
    home,
    aishFiles: [join(home, 'conf/aish'), join(home, 'data/aish'), join(home, 'data/aish/memory.jsonl')],
    env: { GITHUB_TOKEN: 'ghp_FAKE0123456789', PATH: '/usr/bin:/bin1234abcd' },
  });
  return values;
}

describe('secret values found in output', () => {
  it.each([
    ['a line of ~/.aws/credentials', 'x = wJalrXUtnFEMI/K7MDENG/bPxRfiCY', '~/.aws/credentials'],
    ['a private key line among other output', 'a\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nb', '~/.ssh/id_ed25519'],
    ['a .netrc password', 'password hunter2x9', '~/.netrc'],
    ["the project's .env", 'API_KEY=sk-proj-0123abcd', '.env'],
    ["aish's config", "apiKey: 'sk-cfg-5678efgh'", 'config.ts'],
    ['a secret variable of aish', 'GITHUB_TOKEN=ghp_FAKE0123456789', '$GITHUB_TOKEN'],
  ])('%s', async (_what, output, from) => {
    const values = await setUp();
    expect(leakedFrom(values, output)).toContain(from);
  });

  it('not ordinary output, history words, session data or variables that are not secret', async () => {
    const values = await setUp();
    for (const output of ['exit code 0\nok', 'lodash@4.17.21', 'version 4.17.21 of lodash', '/usr/bin:/bin1234abcd', '[default]'])
      expect(leakedFrom(values, output), output).toBeNull();
  });
});

// The sixth attack: a script that prints a store encoded (`base64`, `gzip | base64`, `xxd`, `od`,
// `rot13`, `rev`, `fold`) used to get it to the model. The encodings below are made as those tools
// make them.
describe('secret values found in output encoded the common ways', () => {
  const file = 'machine example.com login me password hunter2x9\n';
  const wrap = (s: string, n: number) => s.match(new RegExp(`.{1,${n}}`, 'g'))!.join('\n');
  const bytes = Buffer.from(file);
  const offsetHex = (i: number) => i.toString(16).padStart(8, '0');
  const lines = (per: number) => Array.from({ length: Math.ceil(bytes.length / per) }, (_x, i) => bytes.subarray(i * per, (i + 1) * per));
  const xxd = lines(16)
    .map((b, i) => {
      const groups = b
        .toString('hex')
        .match(/.{1,4}/g)!
        .join(' ');
      return `${offsetHex(i * 16)}: ${groups.padEnd(39)}  ${b.toString('latin1').replace(/[^\x20-\x7e]/g, '.')}`;
    })
    .join('\n');
  const hexdumpC = lines(16)
    .map(
      (b, i) =>
        `${offsetHex(i * 16)}  ${[...b].map((x) => x.toString(16).padStart(2, '0')).join(' ')}  |${b.toString('latin1').replace(/[^\x20-\x7e]/g, '.')}|`,
    )
    .join('\n');
  const odX1 = lines(16)
    .map((b) => ` ${[...b].map((x) => x.toString(16).padStart(2, '0')).join(' ')}`)
    .join('\n');
  const rot = file.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= 'Z' ? 65 : 97)));
  it.each([
    ['base64, wrapped at 76', wrap(bytes.toString('base64'), 76)],
    ['base64 after other text', `header\n${Buffer.from(`xy${file}`).toString('base64')}\n`],
    ['base64url', Buffer.from(file).toString('base64url')],
    ['gzip, then base64', gzipSync(bytes).toString('base64')],
    ['xxd -p', wrap(bytes.toString('hex'), 60)],
    ['xxd', xxd],
    ['hexdump -C', hexdumpC],
    ['od -An -tx1', odX1],
    ['rot13', rot],
    [
      'rev',
      file
        .split('\n')
        .map((l) => [...l].reverse().join(''))
        .join('\n'),
    ],
    ['fold -w5', wrap(file.replace(/\n/g, ''), 5)],
  ])('%s', async (_what, output) => {
    const values = await setUp();
    expect(leakedFrom(values, output)).toBe('~/.netrc');
  });

  it('ordinary encoded output is not taken for a secret', async () => {
    const values = await setUp();
    for (const output of [Buffer.from('just some text, version 4.17.21').toString('base64'), Buffer.from('lodash@4.17.21').toString('hex')])
      expect(leakedFrom(values, output), output).toBeNull();
  });
});
