/**
 * The sixth attack: HOME's configuration is walked five levels deep, and a step without a sandbox
 * could plant what runs later deeper than that, in a new directory at the last level the walk lists
 * but does not enter (`~/.vim/pack/p/start/evil/plugin/x.vim`, loaded by vim's next start). Such a
 * new directory is judged as a whole, and removed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { watchHome } from '../../src/checkpoints/outside';
import { tmpDir } from '../helpers/tmp';

describe("HOME's configuration past the walk's depth", () => {
  it('a new directory at the last level, with a plugin inside, is removed whole', async () => {
    const home = tmpDir('aish-home-depth-');
    mkdirSync(join(home, '.vim', 'pack', 'p', 'start', 'mine', 'plugin'), { recursive: true });
    writeFileSync(join(home, '.vim', 'pack', 'p', 'start', 'mine', 'plugin', 'ok.vim'), '" mine\n');
    const watch = watchHome(home, []);
    mkdirSync(join(home, '.vim', 'pack', 'p', 'start', 'evil', 'plugin'), { recursive: true });
    writeFileSync(join(home, '.vim', 'pack', 'p', 'start', 'evil', 'plugin', 'x.vim'), ':!touch ~/pwned\n');
    const v = await watch.check();
    expect(v?.changes).toEqual([{ path: '.vim/pack/p/start/evil', what: 'created' }]);
    expect(v?.keep).toBeNull();
    expect(existsSync(join(home, '.vim', 'pack', 'p', 'start', 'evil'))).toBe(false);
    expect(existsSync(join(home, '.vim', 'pack', 'p', 'start', 'mine', 'plugin', 'ok.vim'))).toBe(true);
  });
});
