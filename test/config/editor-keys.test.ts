import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/validate';
import { ConfigError } from '../../src/util/errors';

describe('editor.keys', () => {
  it('defaults to emacs and accepts vi', () => {
    expect(validateConfig({}, 'c.ts').editor.keys).toBe('emacs');
    expect(validateConfig({ editor: { keys: 'vi' } }, 'c.ts').editor.keys).toBe('vi');
  });
  it('rejects anything else in one line that names the key and the choices', () => {
    let err: unknown;
    try {
      validateConfig({ editor: { keys: 'vim' } }, 'c.ts');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('editor.keys');
    expect(msg).toContain('"emacs" or "vi"');
    expect(msg).not.toContain('\n');
    expect(() => validateConfig({ editor: { mode: 'vi' } }, 'c.ts')).toThrow(/editor/);
  });
});
