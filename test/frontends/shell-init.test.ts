/** `aish init`: each snippet binds Alt-E to put aish's suggestion on the line, never to run it. */
import { describe, expect, it } from 'vitest';
import { shellInit } from '../../src/frontends/cli/shell-init';
import { UsageError } from '../../src/util/errors';

describe('aish init', () => {
  it('bash: bind -x on \\ee setting READLINE_LINE and READLINE_POINT', () => {
    const s = shellInit('bash');
    expect(s).toContain(`bind -x '"\\ee": __aish_suggest'`);
    expect(s).toContain('aish -e "$READLINE_LINE"');
    expect(s).toContain('READLINE_LINE="$cmd"');
    expect(s).toContain('READLINE_POINT=${#cmd}');
  });

  it('zsh: a zle widget on \\ee setting BUFFER and CURSOR', () => {
    const s = shellInit('zsh');
    expect(s).toContain('zle -N __aish_suggest');
    expect(s).toContain(`bindkey '\\ee' __aish_suggest`);
    expect(s).toContain('aish -e "$BUFFER"');
    expect(s).toContain('CURSOR=${#BUFFER}');
  });

  it('fish: a function using commandline, bound to \\ee', () => {
    const s = shellInit('fish');
    expect(s).toContain('commandline -r -- $cmd');
    expect(s).toContain('bind \\ee __aish_suggest');
  });

  it('none of them runs the suggestion', () => {
    for (const sh of ['bash', 'zsh', 'fish']) expect(shellInit(sh)).not.toMatch(/accept-line|eval "\$cmd"|commandline -f execute/);
  });

  it('another shell is a usage error', () => {
    expect(() => shellInit('tcsh')).toThrow(UsageError);
  });
});
