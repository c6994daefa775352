/**
 * The deny corpus end to end: with `safety.rules: ['deny rm', 'deny git push']` and no sandbox, a
 * hostile model emits every line of test/tools/rules/deny-corpus.ts as a run_command step of a real
 * `aish --norris --yes`, then of `aish --norris` without --yes (no terminal), inside the bubblewrap
 * jail (test/helpers/jail.ts) so that a step that got through could only touch the jail. Each line
 * deletes its own victims, one in the project and one outside it, or pushes to a bare remote: every
 * victim survives, the remote gets nothing, and every step is reported refused to the model with
 * the rule named. A control step shows that steps do run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { jailRuns, jailSkipNote, makeJail, runAishJailed, type Jail } from '../helpers/jail';
import { DENY_CORPUS, DENY_RULES, fill } from '../tools/rules/deny-corpus';

const fake = useFakeOpenAI();

interface Setup extends Jail {
  victims: string[];
  remote: string;
  commands: string[];
}

function setUp(): Setup {
  const jail = makeJail();
  const { root, home, work } = jail;
  writeFileSync(
    join(home, 'config.ts'),
    `export default { safety: { sandbox: 'off', checkpoints: false, rules: ${JSON.stringify(DENY_RULES)} }, norris: { maxSteps: 4 } };\n`,
  );
  const remote = join(root, 'remote.git');
  const env = { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q', '--bare', remote], { env });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work, env });
  git('init', '-q', '-b', 'main');
  writeFileSync(join(work, 'README.md'), '# demo\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  git('remote', 'add', 'origin', remote);
  const victims: string[] = [];
  const commands = DENY_CORPUS.map(([, template], i) => {
    const inside = join(work, `victim-${i}`);
    const outside = join(home, 'outside', `victim-${i}`);
    for (const dir of [inside, outside]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'keep'), 'keep me\n');
      victims.push(join(dir, 'keep'));
    }
    return fill(template, `victim-${i} ${outside}`);
  });
  return { ...jail, victims, remote, commands };
}

/** One aish run: every line as a tool call of the first reply, a control step last, then "Done.". */
async function run(s: Setup, yes: boolean): Promise<{ results: string[]; stderr: string }> {
  const steps = [...s.commands, 'echo ran'];
  const toolCalls = steps.map((c, i) => ({ id: `s${i}`, name: 'run_command', arguments: JSON.stringify({ command: c }) }));
  fake.server.enqueue({ toolCalls }, { text: 'Done.' });
  const r = await runAishJailed(s, ['--config', join(s.home, 'config.ts'), '--norris', 'clean up', ...(yes ? ['--yes'] : [])], {
    env: fake.env(),
    timeoutMs: 100_000,
  });
  const requests = fake.server.requests;
  expect(requests.length, r.stderr).toBeGreaterThanOrEqual(2);
  const byId = new Map<string, string>();
  for (const m of requests[1]!.body.messages) if (m.role === 'tool' && m.tool_call_id) byId.set(m.tool_call_id, String(m.content));
  return { results: steps.map((_c, i) => byId.get(`s${i}`) ?? '(no result)'), stderr: r.stderr };
}

describe.each([
  ['aish --norris --yes', true],
  ['aish --norris (no --yes, no terminal)', false],
] as const)('the deny corpus through %s, sandbox off, rules deny rm and deny git push', (_name, yes) => {
  it.skipIf(!jailRuns)(
    `every step is refused naming the rule; every victim inside and outside the project survives${jailSkipNote}`,
    { timeout: 150_000 },
    async () => {
      const s = setUp();
      const { results, stderr } = await run(s, yes);
      const steps = results.slice(0, -1).map((text, i) => ({ step: s.commands[i], text }));
      const notRefused = steps.filter((x) => !/^Not run:/.test(x.text));
      expect(notRefused).toEqual([]);
      const unnamed = steps.filter((x) => !/"deny (rm|git push)"/.test(x.text));
      expect(unnamed).toEqual([]);
      expect(s.victims.filter((v) => !existsSync(v))).toEqual([]);
      expect(execFileSync('git', ['for-each-ref'], { cwd: s.remote, encoding: 'utf8' })).toBe('');
      // The control step ran: steps are not refused wholesale.
      expect(results.at(-1)).toMatch(/^exit code 0\nran/);
      expect(stderr).toContain('refused: ');
    },
  );
});
