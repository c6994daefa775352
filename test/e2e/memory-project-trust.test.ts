/**
 * A project is what the user says it is (real git, real CLI, the fake model server's recorded
 * requests): a stranger's repository that names the victim's project — by `.aish/project-id`, by
 * the remote URL in `.git/config`, or both — gets none of the victim's project items, private or
 * not, into the request the model receives, and says in one line how to confirm; once the user
 * confirms the checkout (`aish memory trust-project`), they are sent; `--revoke` undoes that.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn as git } from '../helpers/git';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { realPath } from '../../src/util/paths';

const fake = useFakeOpenAI();

type Naming = 'id file' | 'remote URL' | 'both';

/** The victim's checkout `mine/shop` (named as `naming` says), with a private and a shared project item; and a stranger's `evil` naming the same project. */
async function setup(naming: Naming) {
  const home = realPath(tmpDir());
  const data = join(home, 'd');
  const run = (cwd: string, args: string[], input?: string) =>
    runAish(['--data-dir', data, ...args], { home, cwd, env: fake.env(), ...(input !== undefined && { input }) });
  const name = (dir: string) => {
    git(home, home, 'init', '-q', dir);
    if (naming !== 'id file') git(home, join(home, dir), 'remote', 'add', 'origin', 'git@github.com:acme/shop.git');
    if (naming !== 'remote URL') {
      mkdirSync(join(home, dir, '.aish'));
      writeFileSync(join(home, dir, '.aish', 'project-id'), 'shop\n');
    }
  };
  name('mine/shop');
  const mine = join(home, 'mine/shop');
  for (const [flags, text] of [
    [['--private'], 'the deploy token lives in vault path secret/shop-7'],
    [[], 'shop deploys with make ship'],
  ] as const) {
    const r = await run(mine, ['memory', 'add', '--project', ...flags, 'fact', text]);
    expect(r.stderr).toBe('');
  }
  expect((await run(home, ['memory', 'add', 'fact', 'prefers short answers'])).code).toBe(0);
  // The stranger's repository, cloned or unpacked: it names the same project.
  name('evil');
  return { home, data, mine, evil: join(home, 'evil'), run };
}

/** The system prompt and user message of one `aish -p` turn, and what aish said on stderr. */
async function sent(run: Awaited<ReturnType<typeof setup>>['run'], cwd: string): Promise<{ text: string; stderr: string }> {
  fake.server.reset();
  const r = await run(cwd, ['-p', 'how do we deploy?']);
  expect(r.code).toBe(0);
  const req = fake.server.requests.at(-1)!;
  return { text: `${systemText(req)}\n${lastUserText(req)}`, stderr: r.stderr };
}

describe('a stranger’s repository naming your project (real git, real CLI)', () => {
  for (const naming of ['id file', 'remote URL', 'both'] as const) {
    it(`by ${naming}: none of your project items reach the model there until you confirm it; --revoke undoes that`, async () => {
      const { mine, evil, run, data } = await setup(naming);
      // Where the user added them, they apply (adding a project item establishes the checkout).
      const home = await sent(run, mine);
      expect(home.text).toContain('vault path secret/shop-7');
      expect(home.text).toContain('make ship');
      expect(home.stderr).toBe('');

      const there = await sent(run, evil);
      expect(there.text).toContain('prefers short answers');
      expect(there.text).not.toContain('secret/shop-7');
      expect(there.text).not.toContain('make ship');
      const said = there.stderr.split('\n').filter((l) => l.includes('trust-project'));
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        /this checkout names .*shop.*, not confirmed here, so its 2 project memories are not used — confirm with: aish memory trust-project/,
      );
      expect((await run(evil, ['memory', 'list', '--here'])).stdout).not.toContain('make ship');

      const trust = await run(evil, ['memory', 'trust-project']);
      expect(trust.stderr).toBe('');
      expect(trust.stdout).toContain('its project items apply here');
      const projects = join(data, 'projects.jsonl');
      expect(readFileSync(projects, 'utf8')).toContain('"how":"confirmed"');
      const after = await sent(run, evil);
      expect(after.text).toContain('secret/shop-7');
      expect(after.text).toContain('make ship');
      expect(after.stderr).not.toContain('trust-project');

      expect((await run(evil, ['memory', 'trust-project', '--revoke'])).stdout).toContain('no longer');
      expect((await sent(run, evil)).text).not.toContain('make ship');
      // The victim's own checkout is untouched by all this.
      expect((await sent(run, mine)).text).toContain('make ship');
    });
  }
});
