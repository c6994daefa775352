/** What a newcomer meets first on the command line: stray words, missing keys, where the config lives. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

describe('a newcomer on the command line', () => {
  it('aish memory --help names the stale review and the log of arrivals', async () => {
    const r = await runAish(['memory', '--help'], { home: tmpDir() });
    expect(r.code).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(
      / review \[options\] in a terminal: [^[]*\[1\/2\/b\/s\][^]*?--stale: old items never recalled lately help \[command\]/,
    );
    expect(flat).toMatch(/ log \[options\] what arrived from elsewhere/);
    // The command line names its own commands, not the REPL's `:memory …`.
    expect(flat).not.toContain(':memory undo');
    expect(flat).toContain('aish memory undo RECEIPT takes one back');
    expect(flat).toContain('undo aish memory pin');
  });

  it('words that are no command suggest asking them with -p', async () => {
    const r = await runAish(['how', 'do', 'I', 'list', '"big"', 'files'], { home: tmpDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('aish: unknown command "how"; to ask once: aish -p "how do I list \\"big\\" files" (see aish --help)\n');
  });

  it.each([
    [['memroy', 'list'], 'aish: unknown command "memroy" (did you mean memory?); to ask once: aish -p "memroy list" (see aish --help)\n'],
    [['sesions'], 'aish: unknown command "sesions" (did you mean sessions?); to ask once: aish -p "sesions" (see aish --help)\n'],
    [['edit', 'my', 'files'], 'aish: unknown command "edit"; to ask once: aish -p "edit my files" (see aish --help)\n'],
    [['memory', 'lsit'], "aish: unknown command 'lsit' (did you mean list?) (see aish memory --help)\n"],
    [['memory', 'list', '--jsn'], "aish: unknown option '--jsn' (did you mean --json?) (see aish memory list --help)\n"],
  ])('a misspelt command or option: one line naming the one meant (%j)', async (args, line) => {
    const r = await runAish(args, { home: tmpDir() });
    expect(r.stderr).toBe(line);
    expect(r.code).toBe(2);
  });

  it('the welcome line and :config name the config file aish reads and where config.example.ts is', async () => {
    const home = tmpDir();
    const env = { XDG_CONFIG_HOME: join(home, 'xdg'), OPENAI_API_KEY: undefined };
    const r = await runAish([], { home, env, input: ':config\n:quit\n' });
    expect(r.code).toBe(0);
    const hint = `copy ${join(ROOT, 'config.example.ts')} to ~/xdg/aish/config.ts`;
    expect(r.stdout).toContain(`config: none — the defaults (${hint})\n`);
    expect(r.stderr).toContain(`for Ollama); for presets, ${hint}\n`);
    expect(r.stdout + r.stderr).not.toContain('~/.config/aish');
  });

  it('a local preset without a key that gets a 401 names the preset and how to set a key', async () => {
    const home = tmpDir();
    const config = join(home, 'config.ts');
    writeFileSync(config, `export default { models: { local: { model: 'llama3', baseURL: ${JSON.stringify(fake.server.url)} } } };\n`);
    fake.server.enqueue({ status: 401, error: { message: 'key required' } });
    const r = await runAish(['--config', config, '-m', 'local', '-p', 'hi'], { home, env: { OPENAI_API_KEY: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `aish: ${fake.server.url} refused the API key (401): key required — preset "local" has no API key: export OPENAI_API_KEY=…, or set models.local.apiKey or .apiKeyEnv in the config\n`,
    );
  });

  it('aish -c continues the latest session aish sessions list shows, not a later one-shot run', async () => {
    const home = tmpDir();
    const env = fake.env();
    expect((await runAish([], { home, env, input: 'first question\n:quit\n' })).code).toBe(0);
    expect((await runAish(['-p', 'one-shot question'], { home, env })).code).toBe(0);
    const listed = await runAish(['sessions', 'list'], { home, env });
    expect(listed.stdout).toContain('first question');
    expect(listed.stdout).not.toContain('one-shot question');
    fake.server.reset();
    const r = await runAish(['-c'], { home, env, input: 'and then?\n:quit\n' });
    expect(r.code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    const said = req!.body.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(said).toEqual(['first question', 'and then?']);
  });
});
