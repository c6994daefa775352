/** memory.recall.maxItems and memory.recall.synonyms: validated with one-line errors that name the key. */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/validate';
import { ConfigError } from '../../src/util/errors';

const recall = (r: unknown) => validateConfig({ memory: { recall: r } }, 'config.ts');
const recallOf = (r: unknown) => {
  const m = recall(r).memory;
  if (!m) throw new Error('memory off');
  return m.recall;
};

function failure(r: unknown): string {
  try {
    recall(r);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    const text = (err as Error).message;
    expect(text.split('\n')).toHaveLength(1);
    return text;
  }
  throw new Error('no error');
}

describe('memory.recall', () => {
  it('takes maxItems (absent: the built-in 6) and synonyms', () => {
    expect(recallOf({}).maxItems).toBeUndefined();
    expect(recallOf({ maxItems: 3 }).maxItems).toBe(3);
    expect(recallOf({ synonyms: { login: ['sso', 'sign on'] } }).synonyms).toEqual({ login: ['sso', 'sign on'] });
  });

  it('refuses a bad maxItems or synonyms in one line naming the key', () => {
    expect(failure({ maxItems: 0 })).toMatch(/memory\.recall\.maxItems must be a whole number from 1 to 1000 \(got number 0\)/);
    expect(failure({ synonyms: ['login', 'sso'] })).toMatch(/memory\.recall\.synonyms must be an object/);
    expect(failure({ synonyms: { login: 'sso' } })).toMatch(/memory\.recall\.synonyms\["login"\] must be a list of strings/);
    expect(failure({ synonyms: { login: [] } })).toMatch(/memory\.recall\.synonyms\["login"\] must be a list of at least one word/);
    expect(failure({ synonyms: { login: ['a very long phrase'] } })).toMatch(/at most 3 words \(got "a very long phrase"\)/);
    expect(failure({ synonyms: { '!!': ['x'] } })).toMatch(/the key memory\.recall\.synonyms\["!!"\] must be a word or a phrase/);
  });
});
