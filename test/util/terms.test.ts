import { afterEach, describe, expect, it } from 'vitest';
import { isStopWord, isWeakTerm, stem, terms } from '../../src/util/terms';
import { setSynonyms } from '../../src/util/word-groups';

describe('terms', () => {
  afterEach(() => setSynonyms(undefined));

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

  it("stems with Porter's algorithm: crashes, crashed and crashing are one term; PRs is pr's plural", () => {
    expect(terms('crashes')).toEqual(['crash']);
    expect(terms('crashed crashing crash')).toEqual(['crash', 'crash', 'crash']);
    expect(terms('PRs')).toEqual(terms('pr'));
    expect(terms('deploying deployed')).toEqual(terms('deploy deploy'));
    expect(stem('class')).toBe('class');
    expect(stem('bus')).toBe('bus');
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('database')).toBe(false);
  });

  it('keeps words of any script and splits on everything else', () => {
    expect(terms('Grüße aus Köln — 東京/大阪')).toEqual(['grüße', 'aus', 'köln', '東京', '大阪']);
  });

  it('folds developer abbreviations and their long forms to one term, both ways', () => {
    const pairs: Array<[string, string]> = [
      ['k8s', 'Kubernetes'],
      ['DB', 'database'],
      ['dbs', 'databases'],
      ['auth', 'authentication'],
      ['login', 'authentication'],
      ['sign in', 'auth'],
      ['cfg', 'configuration'],
      ['config', 'configuration'],
      ['env', 'environment'],
      ['prod', 'production'],
      ['stg', 'staging'],
      ['repo', 'repository'],
      ['repos', 'repositories'],
      ['PR', 'pull request'],
      ['PRs', 'pull requests'],
      ['CI', 'continuous integration'],
      ['infra', 'infrastructure'],
      ['deps', 'dependencies'],
      ['perf', 'performance'],
      ['lint', 'linter'],
    ];
    for (const [short, long] of pairs) {
      expect(terms(short), `${short} ~ ${long}`).toEqual(terms(long));
      expect(terms(short)).toHaveLength(1);
    }
    // A group's term is its long form unstemmed: "production" does not become "product".
    expect(terms('prod')).not.toEqual(terms('product'));
    expect(terms('the prod db crashes')).toEqual(['production', 'database', 'crash']);
  });

  it("folds the user's synonyms from the config, phrases too, merged with the built-in groups", () => {
    expect(terms('sso')).toEqual(['sso']);
    setSynonyms({ login: ['sso', 'single sign on'], billing: ['invoices', 'stripe'] });
    expect(terms('sso')).toEqual(terms('authentication'));
    expect(terms('single sign on broken')).toEqual([...terms('auth'), 'broken']);
    expect(terms('stripe')).toEqual(terms('billing'));
    expect(terms('invoice')).toEqual(terms('billing'));
    setSynonyms(undefined);
    expect(terms('stripe')).not.toEqual(terms('billing'));
  });

  it('calls numbers and one- or two-character terms weak, but never a group term', () => {
    expect(isWeakTerm('42')).toBe(true);
    expect(isWeakTerm('2026')).toBe(true);
    expect(isWeakTerm('vm')).toBe(true);
    expect(isWeakTerm('vim')).toBe(false);
    expect(isWeakTerm(terms('db')[0]!)).toBe(false);
    expect(isWeakTerm(terms('PR')[0]!)).toBe(false);
  });
});
