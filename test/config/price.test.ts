import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/validate';

describe('models.NAME.price', () => {
  it('is kept as given', () => {
    const c = validateConfig({ models: { fast: { model: 'gpt-4o-mini', price: { input: 0.15, output: 0.6 } } } }, 'c.ts');
    expect(c.models.fast!.price).toEqual({ input: 0.15, output: 0.6 });
  });

  it.each([
    [{ input: 1 }, 'models.fast.price.output must be a number from 0 to 10000 (got nothing)'],
    [{ input: -1, output: 1 }, 'models.fast.price.input must be a number from 0 to 10000 (got number -1)'],
    [{ input: '1', output: 1 }, 'models.fast.price.input must be a number from 0 to 10000 (got "1")'],
    [3, 'models.fast.price must be an object (got number 3)'],
  ])('refuses %j with a clear error', (price, message) => {
    expect(() => validateConfig({ models: { fast: { model: 'x', price } } }, 'c.ts')).toThrow(`config c.ts: ${message}`);
  });

  it('names an unknown key inside price', () => {
    expect(() => validateConfig({ models: { fast: { model: 'x', price: { input: 1, outptu: 2 } } } }, 'c.ts')).toThrow(
      /unknown key models\.fast\.price\.outptu \(did you mean models\.fast\.price\.output\?\)/,
    );
  });
});
