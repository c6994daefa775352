/** What a newcomer meets first on the command line: stray words, missing keys, where the config lives. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('a newcomer on the command line', () => {
  it('words that are no command suggest asking them with -p', async () => {
    const r = await runAish(['how', 'do', 'I', 'list', '"big"', 'files'], { home: tmpDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('aish: unknown command "how"; to ask once: aish -p "how do I list \\"big\\" files" (see aish --help)\n');
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
});
