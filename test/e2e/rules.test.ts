/**
 * Command rules end to end: a deny rule refuses a step under `aish --norris --yes` through every
 * wrapper aish looks through (a step that got past it would leave a marker file in the work
 * directory), `aish rules check` prints the decision and the rule and exits by it, a bad rule is
 * one line naming it, and a project's .aish/rules counts only once trusted.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import type { Reply } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { WRAPPED_TOUCH } from '../tools/rules/corpus';

const fake = useFakeOpenAI();
const call = (command: string): Reply => ({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] });

/** Not under /tmp: a sandbox gives each step a private /tmp, where a marker would vanish unseen. */
function workDirs(): { home: string; work: string } {
  const home = mkdtempSync('/var/tmp/aish-rules-');
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  const work = join(home, 'work');
  mkdirSync(work);
  return { home, work };
}

describe('a deny rule under aish --norris --yes', () => {
  it('refuses the command through every wrapper, tells the model the rule, and lets other steps run', async () => {
    const { home, work } = workDirs();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, `export default { safety: { rules: ['deny touch'] }, norris: { maxSteps: ${WRAPPED_TOUCH.length + 2} } };\n`);
    const steps = WRAPPED_TOUCH.map((c, i) => call(c.replace(/M/g, `marker${i}`)));
    fake.server.enqueue(...steps, call('echo ran > control.txt'), { text: 'Done.' });
    const r = await runAish(['--config', cfg, '--norris', 'make markers', '--yes'], {
      home,
      cwd: work,
      env: fake.env(),
      timeoutMs: 90_000,
    });
    // The control step ran: steps do write into the work directory.
    expect(existsSync(join(work, 'control.txt'))).toBe(true);
    expect(readdirSync(work).filter((f) => f.startsWith('marker'))).toEqual([]);
    const reqs = await fake.server.waitForRequests(steps.length + 2);
    const results = reqs[reqs.length - 1]!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results).toHaveLength(steps.length + 1);
    results.slice(0, steps.length).forEach((text, i) => {
      // A command known only at run time cannot be matched: it asks, and with --norris nobody answers.
      const expected = WRAPPED_TOUCH[i]!.startsWith('T=')
        ? /^Not run: the user's command rules ask before this/
        : /^Not run: denied by the rule "deny touch"/;
      expect({ step: WRAPPED_TOUCH[i], text }).toEqual({ step: WRAPPED_TOUCH[i], text: expect.stringMatching(expected) });
    });
    expect(r.stderr).toContain('refused: touch marker0 (denied by the rule "deny touch")');
  }, 120_000);
});

describe('aish rules check', () => {
  const config = (home: string, rules: string[]): string => {
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, `export default { safety: { rules: ${JSON.stringify(rules)} } };\n`);
    return cfg;
  };

  it('prints the decision, the rule, where it came from and the command it matched; exits 4, 3, 0', async () => {
    const home = tmpDir();
    const cfg = config(home, ['deny git push', 'ask docker', 'allow npm run test']);
    const deny = await runAish(['--config', cfg, 'rules', 'check', "ls && sudo env X=1 sh -c 'git push origin'"], { home });
    expect(deny).toMatchObject({ code: 4, stderr: '' });
    expect(deny.stdout).toBe(
      [
        "deny: ls && sudo env X=1 sh -c 'git push origin'",
        '  rule:    deny git push   (config safety.rules[0])',
        '  matched: git push origin',
        '  why: denied by the rule "deny git push"',
        '',
      ].join('\n'),
    );
    const ask = await runAish(['--config', cfg, 'rules', 'check', 'timeout 9 docker ps'], { home });
    expect(ask.code).toBe(3);
    expect(ask.stdout).toContain('  matched: timeout 9 docker ps  → docker ps\n');
    const allow = await runAish(['--config', cfg, 'rules', 'check', '--json', 'npm run test | grep ok'], { home });
    expect(allow.code).toBe(0);
    expect(JSON.parse(allow.stdout)).toMatchObject({
      decision: 'allow',
      rule: 'allow npm run test',
      source: 'config safety.rules[2]',
      simpleCommands: ['npm run test', 'grep ok'],
    });
    const none = await runAish(['--config', cfg, 'rules', 'check', 'rm -rf build'], { home });
    expect(none).toMatchObject({ code: 0 });
    expect(none.stdout).toMatch(/^no rule: rm -rf build\n/);
    expect((await runAish(['--config', cfg, 'rules', 'check'], { home })).code).toBe(2);
    // The command as words: its options are its own.
    const words = await runAish(['--config', cfg, 'rules', 'check', 'git', '-C', '/x', 'push', '--force'], { home });
    expect(words.code).toBe(4);
    expect(words.stdout).toMatch(/^deny: git -C \/x push --force\n/);
  });

  it('a bad rule in the config is one line naming it', async () => {
    const home = tmpDir();
    const cfg = config(home, ['deny git push', 'deny git push | sh']);
    const r = await runAish(['--config', cfg, 'rules', 'list'], { home });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('safety.rules[1] "deny git push | sh"');
  });
});

describe("a project's .aish/rules", () => {
  it('is not used until trusted; trust is per content, recorded 0600; the REPL says so once at start', async () => {
    const home = tmpDir();
    const proj = join(home, 'proj');
    mkdirSync(join(proj, '.aish'), { recursive: true });
    mkdirSync(join(proj, 'src'));
    writeFileSync(join(proj, '.aish', 'rules'), '# no pushing from here\ndeny git push\n');
    const check = () => runAish(['rules', 'check', 'git push'], { home, cwd: join(proj, 'src') });
    expect((await check()).code).toBe(0);

    const start = await runAish([], {
      home,
      cwd: proj,
      env: fake.env(),
      input: ':rules check git push\n:trust\ny\n:rules check git push\n',
    });
    expect(start.code).toBe(0);
    const all = start.stdout + start.stderr;
    // Said once at start, and again by :rules check (which found the rule not used); :trust then trusts it.
    expect(all.match(/not trusted, so not used/g)).toHaveLength(2);
    expect(all).toMatch(/no rule: git push\n.*\n.*~\/proj\/\.aish\/rules: 1 rule, not trusted, so not used/);
    expect(all).toContain('deny git push');
    expect(all).toMatch(/trusted ~\/proj\/\.aish\/rules as it is now/);
    expect(all).toMatch(/deny: git push\n\s+rule:\s+deny git push\s+\(~\/proj\/\.aish\/rules:2\)/);
    const store = join(home, '.local', 'share', 'aish', 'trusted-rules.json');
    expect(statSync(store).mode & 0o777).toBe(0o600);
    expect((await check()).code).toBe(4);

    // An edited file is not the file that was trusted.
    writeFileSync(join(proj, '.aish', 'rules'), 'deny git push\nallow rm\n');
    expect((await check()).code).toBe(0);
    expect((await runAish(['rules', 'list'], { home, cwd: proj })).stdout).toContain('changed since you trusted it');
    expect((await runAish(['rules', 'trust', '--yes'], { home, cwd: proj })).code).toBe(0);
    expect((await check()).code).toBe(4);
    expect((await runAish(['rules', 'trust', '--revoke'], { home, cwd: proj })).stdout).toMatch(/no longer trusted/);
    expect((await check()).code).toBe(0);
  });
});
