import { describe, expect, it } from 'vitest';
import { isStopWord, stem, terms } from '../../src/util/terms';

describe('terms', () => {
  it('lower-cases, drops stop words and single letters, keeps digits', () => {
    expect(terms('Where does the staging database live? Host zebra-17, node 2, a b')).toEqual([
      'staging',
      'database',
      'live',
      'host',
      'zebra',
      '17',
      'node',
      '2',
    ]);
  });

  it('folds plurals so a query matches the singular and the plural alike', () => {
    expect(terms('databases')).toEqual(terms('database'));
    expect(terms('lives')).toEqual(terms('live'));
    expect(terms('libraries')).toEqual(terms('library'));
  });

  it('keeps words of any script and splits on everything else', () => {
    expect(terms('Grüße aus Köln — 東京/大阪')).toEqual(['grüße', 'aus', 'köln', '東京', '大阪']);
  });

  it('leaves -ss, -us and short words alone', () => {
    expect(stem('class')).toBe('class');
    expect(stem('status')).toBe('status');
    expect(stem('bus')).toBe('bus');
    expect(stem('boxes')).toBe('boxe');
    expect(stem('toes')).toBe('toe');
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('database')).toBe(false);
  });
});
