/** What a newcomer meets first on the command line: stray words, missing keys, where the config lives. */
import { describe, expect, it } from 'vitest';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

describe('a newcomer on the command line', () => {
  it('words that are no command suggest asking them with -p', async () => {
    const r = await runAish(['how', 'do', 'I', 'list', '"big"', 'files'], { home: tmpDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('aish: unknown command "how"; to ask once: aish -p "how do I list \\"big\\" files" (see aish --help)\n');
  });
});
