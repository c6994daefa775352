import { describe, expect, it } from 'vitest';
import { argumentLines } from '../../src/tools/argument-lines';

describe('argumentLines: the texts of a tool call that may be command lines', () => {
  it('each string, and each object’s strings and string lists joined as shell words', () => {
    expect(argumentLines({ command: 'rm -rf x' })).toEqual(['rm -rf x']);
    // A list alone is a command too (`{argv: ['rm', '-rf', 'x']}`).
    expect(argumentLines({ program: 'rm', args: ['-rf', "it's"] })).toEqual([
      'rm',
      '-rf',
      "it's",
      `'-rf' 'it'\\''s'`,
      `'rm' '-rf' 'it'\\''s'`,
    ]);
    expect(argumentLines({ a: { b: [{ c: 'ls' }] }, n: 3, t: true, z: null })).toEqual(['ls']);
    expect(argumentLines('echo hi')).toEqual(['echo hi']);
    expect(argumentLines(42)).toEqual([]);
  });

  it('null (so the caller asks) past its bounds: too many characters, texts or levels', () => {
    expect(argumentLines({ command: 'x'.repeat(70_000) })).toBeNull();
    expect(argumentLines({ list: Array.from({ length: 300 }, (_, i) => `w${i}`) })).toBeNull();
    let deep: unknown = 'rm -rf x';
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(argumentLines(deep)).toBeNull();
    expect(argumentLines({ list: Array.from({ length: 100 }, (_, i) => `w${i}`) })).toHaveLength(101);
  });
});
