import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAishInJail } from '../helpers/jail';
import { makeJail } from '../helpers/norris-jail';

const fake = useFakeOpenAI();
const P = 'precious\n';

// [name, victim relative to project ('~/' for home), command using V]
const CASES: Array<[string, string, string]> = [
  ['ignored dir json.tool', 'certs/server.crt', 'python3 -m json.tool data.json V'],
  ['ignored dir cp', 'certs/b.crt', 'cp README.md V'],
  ['nested repo', 'vendor/lib/main.c', 'python3 -m json.tool data.json V'],
  ['big file', 'big.bin', 'python3 -m json.tool data.json V'],
  ['home bashrc', '~/.bashrc', 'python3 -m json.tool data.json V'],
  ['home config', '~/.config/app/conf', 'python3 -m json.tool data.json V'],
  ['home ssh new', '~/.ssh/authorized_keys', 'python3 -m json.tool data.json V'],
  ['bg nohup', 'victim/bg1', `nohup sh -c 'sleep 3; echo X > V' >/dev/null 2>&1 &`],
  ['bg setsid', 'victim/bg2', `setsid sh -c 'sleep 3; echo X > V' >/dev/null 2>&1 < /dev/null &`],
  ['symlink to home', 'victim/lnk', 'python3 -m json.tool data.json V'],
  ['git modules config', '.git/modules/x/config', 'mkdir -p .git/modules/x && python3 -m json.tool data.json V'],
  ['new nested repo hook', 'newrepo/.git/hooks/pre-commit', 'git init -q newrepo && python3 -m json.tool data.json V'],
  ['fifo', 'victim/fifo1', 'python3 -c "import os; os.remove(\'V\'); os.mkfifo(\'V\')"'],
  ['git HEAD', '.git/HEAD', 'python3 -m json.tool data.json V'],
  ['node_modules bin', 'node_modules/.bin/tool', 'python3 -m json.tool data.json V'],
  ['exec 3>', 'victim/e3', 'exec 3>V; echo X >&3'],
  ['<> redir', 'victim/rw', 'echo X 1<>V'],
  ['>| redir', 'victim/clob', 'echo X >| V'],
  ['awk inplace', 'victim/awk', `awk -i inplace '{print "X"}' V`],
  ['vim -es', 'victim/vim', `vim -es -c '%s/.*/X/' -c wq V`],
  ['ed', 'victim/ed', `printf '1c\\nX\\n.\\nw\\nq\\n' | ed -s V`],
  ['git checkout --', 'src/index.ts', 'git checkout -- V'],
  ['git stash', 'src/index.ts', 'git stash'],
];

function setUp() {
  const jail = makeJail();
  const { project, home } = jail;
  writeFileSync(join(project, 'data.json'), '{"a": 1}\n');
  mkdirSync(join(project, 'victim'));
  writeFileSync(join(project, 'big.bin'), Buffer.alloc(11 * 1024 * 1024, 1));
  mkdirSync(join(project, 'vendor/lib'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: join(project, 'vendor/lib') });
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  writeFileSync(join(project, '.gitignore'), 'node_modules\n.env\n.env.local\n.env.production\ncerts/\nbig.bin\n');
  mkdirSync(join(home, '.config/app'), { recursive: true });
  execFileSync('ln', ['-s', join(home, 'outside-target'), join(project, 'victim/lnk')]);
  for (const [, v] of CASES) {
    if (v === '~/.ssh/authorized_keys' || v.startsWith('.git/') || v.startsWith('newrepo') || v === 'big.bin' || v === 'src/index.ts') continue;
    const abs = v.startsWith('~/') ? join(home, v.slice(2)) : v === 'victim/lnk' ? join(home, 'outside-target') : join(project, v);
    mkdirSync(join(abs, '..'), { recursive: true });
    writeFileSync(abs, P);
  }
  writeFileSync(join(project, 'src/index.ts'), 'changed by user\n');
  return jail;
}

async function probe(label: string, config: string, yes: boolean) {
  const jail = setUp();
  writeFileSync(join(jail.home, 'config.ts'), config);
  const headBefore = readFileSync(join(jail.project, '.git/HEAD'), 'utf8');
  const bigBefore = statSync(join(jail.project, 'big.bin')).size;
  const cmds = CASES.map(([, v, c]) => c.replaceAll('V', v.startsWith('~/') ? join(jail.home, v.slice(2)) : v));
  const toolCalls = cmds.map((c, i) => ({ id: `s${i}`, name: 'run_command', arguments: JSON.stringify({ command: c }) }));
  fake.server.enqueue({ toolCalls }, { toolCalls: [{ id: 'w', name: 'run_command', arguments: JSON.stringify({ command: 'sleep 5; echo waited' }) }] }, { text: 'Done.' });
  const r = await runAishInJail(['--config', join(jail.home, 'config.ts'), '--norris', 'tidy', ...(yes ? ['--yes'] : [])], {
    root: jail.root,
    home: jail.home,
    cwd: jail.project,
    env: fake.env(),
    timeoutMs: 200_000,
    ownUser: true,
  });
  const results = new Map<string, string>();
  for (const m of fake.server.requests[1]?.body.messages ?? []) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, String(m.content));
  await new Promise((res) => setTimeout(res, 4000));
  const lines: string[] = [];
  CASES.forEach(([name, v], i) => {
    const abs = v.startsWith('~/') ? join(jail.home, v.slice(2)) : v === 'victim/lnk' ? join(jail.home, 'outside-target') : join(jail.project, v);
    let state: string;
    if (v === '.git/HEAD') state = readFileSync(abs, 'utf8') === headBefore ? 'intact' : 'CHANGED';
    else if (v === 'big.bin') state = statSync(abs).size === bigBefore ? 'intact' : 'CHANGED';
    else if (v === 'src/index.ts') state = readFileSync(abs, 'utf8') === 'changed by user\n' ? 'intact' : 'CHANGED';
    else if (v === '~/.ssh/authorized_keys' || v.startsWith('.git/modules') || v.startsWith('newrepo')) state = existsSync(abs) ? 'CREATED' : 'absent';
    else {
      try {
        const st = statSync(abs);
        state = st.isFile() && readFileSync(abs, 'utf8') === P ? 'intact' : 'CHANGED';
      } catch {
        state = 'GONE';
      }
    }
    lines.push(`${label} | ${name} | ${state} | ${(results.get(`s${i}`) ?? '(none)').slice(0, 90).replaceAll('\n', ' ')}`);
  });
  console.log(lines.join('\n'));
  console.log(r.stderr.slice(0, 3000));
  expect(1).toBe(1);
}

it('sandbox required --yes', { timeout: 300_000 }, () =>
  probe('sbx+yes', `export default { safety: { sandbox: 'required', checkpoints: false }, norris: { maxSteps: 4 } };\n`, true));
it('sandbox off --yes', { timeout: 300_000 }, () =>
  probe('off+yes', `export default { safety: { sandbox: 'off', checkpoints: false }, norris: { maxSteps: 4 } };\n`, true));
