/**
 * Where memory came from, as the model is told: items typed here, received from the user's laptop
 * through a real sync (bare repository), a teammate's team file (memory.team "trust") and an import
 * of a CLAUDE.md; the request the test model server receives labels every memory line by origin,
 * and the system prompt's note names the labels. `aish memory list` (text and --json) says the same.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitIn as repoGit } from '../helpers/git';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { syncNet } from '../helpers/sync-machines';
import { realPath } from '../../src/util/paths';

const fake = useFakeOpenAI();

/** The bullets of one memory block of a request. */
function memoryLines(text: string, block: 'background' | 'recall'): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(`[${block}]`)) inBlock = true;
    else if (!line.startsWith('- ')) inBlock = false;
    else if (inBlock) out.push(line);
  }
  return out;
}

describe('memory provenance reaches the model', () => {
  it('lines from here, another machine, a teammate and an import each carry their origin; the note names the labels', async () => {
    const net = syncNet();
    const laptop = net.machine('laptop');
    await laptop.store().add('fact', 'zzorigin the laptop note about rsync backups');
    expect((await laptop.sync()).received).toBe(0);

    const home = realPath(join(net.root, 'desk-home'));
    mkdirSync(home, { recursive: true });
    const data = join(home, 'd');
    repoGit(home, home, 'init', '-q', 'shop');
    const shop = join(home, 'shop');
    repoGit(home, shop, 'remote', 'add', 'origin', 'git@github.com:acme/shop.git');
    const config = join(home, 'config.ts');
    const writeConfig = (budget?: number) =>
      writeFileSync(
        config,
        `export default { memory: { ${budget ? `injectMaxChars: ${budget}, ` : ''}team: "trust", sync: { remote: ${JSON.stringify(net.remote)}, name: "desk", auto: "off" } } };\n`,
      );
    writeConfig();
    const run = (args: string[]) => runAish(['--config', config, '--data-dir', data, ...args], { home, cwd: shop, env: fake.env() });

    expect((await run(['memory', 'add', 'fact', 'zzorigin the desk note about tmux'])).code).toBe(0);
    const synced = await run(['memory', 'sync']);
    expect(synced.stdout).toMatch(/received 1 from 1 machine/);

    const team = join(shop, '.aish', 'memory');
    mkdirSync(team, { recursive: true });
    const teamLine = {
      uid: '01JTEAMBOB000000000000000B',
      ts: '2026-01-02T00:00:00.000Z',
      kind: 'fact',
      content: 'zzorigin the team note about bazel',
    };
    writeFileSync(join(team, 'bob.jsonl'), JSON.stringify({ ...teamLine, scope: 'git:github.com/acme/shop', author: 'bob' }) + '\n');

    const claude = join(home, '.claude', 'CLAUDE.md');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(claude, '# Notes\n\n- zzorigin the imported note about pnpm workspaces\n');
    const imported = await run(['memory', 'import', '--from', 'claude', claude]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/imported 1/);

    // All in [background] first; then, with no room there, all recalled by their words.
    const expected: Record<string, RegExp> = {
      tmux: /^- (#\d+ )?\(fact\) zzorigin the desk note/,
      rsync: /^- (#\d+ )?\(from laptop\) \(fact\) zzorigin the laptop note/,
      bazel: /^- \(team: bob\) \(fact\) zzorigin the team note/,
      pnpm: /^- (#\d+ )?\(imported: CLAUDE\.md\) \((fact|pref)\) zzorigin the imported note/,
    };
    const ask = async (prompt: string) => {
      fake.server.reset();
      const r = await run(['-p', prompt]);
      expect(r.code, r.stderr).toBe(0);
      return fake.server.requests.at(-1)!;
    };

    // All four in [background] (the team item beside the user's own), every line labelled by its origin.
    const req = await ask('zzorigin: rsync backups, tmux, bazel, pnpm workspaces?');
    const background = memoryLines(`${systemText(req)}\n${lastUserText(req)}`, 'background');
    for (const [w, line] of Object.entries(expected)) {
      const hits = background.filter((l) => l.includes(w));
      expect(hits.length, `${w} in ${background.join('\n')}`).toBe(1);
      expect(hits[0]).toMatch(line);
    }
    expect(systemText(req)).toMatch(/\(from NAME\).*\(team: NAME\).*\(imported: FILE\).*\(agent: NAME\)/);

    // No room in [background]: each recalled by its words into [recall], labelled the same.
    writeConfig(70);
    const asked: Record<string, string> = {
      tmux: 'tmux desk',
      rsync: 'rsync backups laptop',
      bazel: 'bazel team',
      pnpm: 'imported pnpm workspaces',
    };
    for (const [w, line] of Object.entries(expected)) {
      const r = await ask(`what about the ${asked[w]!} note?`);
      const recall = memoryLines(lastUserText(r), 'recall');
      const hits = recall.filter((l) => l.includes(w));
      expect(hits.length, `${w} in ${recall.join('\n')}`).toBe(1);
      expect(hits[0]).toMatch(line);
    }
    writeConfig();

    // So does the plan, text and --json.
    const planText = (await run(['memory', 'plan', 'rsync backups'])).stdout;
    expect(planText).toMatch(/laptop note about rsync backups.*\(from laptop\)/);
    const plan = JSON.parse((await run(['memory', 'plan', '--json', 'rsync backups'])).stdout) as {
      background: Array<{ content: string; from: string }>;
    };
    expect(plan.background.map((b) => b.from).sort()).toEqual(
      ['here', 'import:claude:~/.claude/CLAUDE.md', 'machine:laptop', 'team:bob'].sort(),
    );

    // The listings say the same, and --json names every item's origin.
    const list = (await run(['memory', 'list'])).stdout;
    expect(list).toMatch(/laptop note about rsync backups.*\(from laptop\)/);
    expect(list).toMatch(/imported note about pnpm workspaces.*\(imported: CLAUDE\.md\)/);
    expect(list).not.toMatch(/desk note about tmux.*\((from|imported)/);
    const json = JSON.parse((await run(['memory', 'list', '--json'])).stdout) as Array<{ content: string; from: string }>;
    const fromOf = (w: string) => json.find((i) => i.content.includes(w))?.from;
    expect([fromOf('tmux'), fromOf('rsync')]).toEqual(['here', 'machine:laptop']);
    expect(fromOf('pnpm')).toMatch(/^import:claude:.*CLAUDE\.md$/);
  });
});
