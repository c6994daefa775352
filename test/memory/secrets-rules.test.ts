/** The gitleaks rule conversion (scripts/gitleaks-convert.mjs) and the rule set it produced. */
import { describe, expect, it } from 'vitest';
import { convert, parseToml } from '../../scripts/gitleaks-convert.mjs';
import data from '../../src/util/secrets/gitleaks-rules.json';
import { KeywordIndex } from '../../src/util/secrets/keywords';
import { ruleSet } from '../../src/util/secrets/rules';

const js = (go: string) => new RegExp(convert(go));

describe('Go regex to JavaScript', () => {
  it('spells out (?i) as both cases, in classes too, and ends it with its group', () => {
    expect(js('(?i)ab[c-d]').test('AbD')).toBe(true);
    expect(js('x(?i:ab)y').test('xABy')).toBe(true);
    expect(js('x(?i:ab)y').test('xABY')).toBe(false);
    expect(js('(?i)a(?-i:B)c').test('AbC')).toBe(false);
    expect(js('(?i)a(?-i:B)c').test('ABC')).toBe(true);
    expect(js('p8e-(?i)[a-z]{2}').test('p8e-XY')).toBe(true);
  });

  it('translates \\z, (?s:.), POSIX classes and a literal ] first in a class', () => {
    expect(js('a\\z').test('a\n')).toBe(false);
    expect(js('a(?s:.)b').test('a\nb')).toBe(true);
    expect(js('^[[:alnum:]]+$').test('aZ9')).toBe(true);
    expect(js('^[^]]+$').test('ab')).toBe(true);
    expect(js('^[^]]+$').test('a]')).toBe(false);
  });

  it('bounds an unbounded dot, which JavaScript would backtrack over quadratically', () => {
    expect(convert('curl.*-u')).toBe('curl.{0,256}-u');
    expect(convert('a.+?b')).toBe('a.{1,256}?b');
  });

  it('refuses what it cannot translate', () => {
    expect(() => convert('\\pL')).toThrow(/unsupported/);
    expect(() => convert('(?U)a')).toThrow(/unsupported/);
  });

  it('reads the TOML subset gitleaks.toml is written in', () => {
    const t = parseToml(
      `title = "x"\n[allowlist]\nregexes = [\n    '''^a$''',\n]\n[[rules]]\nid = "r"\nregex = '''b+'''\nentropy = 3.5\nkeywords = ["b", "bb"]\n[[rules.allowlists]]\nstopwords = ["c"]\n`,
    );
    expect(t.allowlist).toEqual({ regexes: ['^a$'] });
    expect(t.rules).toEqual([{ id: 'r', regex: 'b+', entropy: 3.5, keywords: ['b', 'bb'], allowlists: [{ stopwords: ['c'] }] }]);
  });
});

describe('the generated rule set', () => {
  it('says where it came from and holds gitleaks rules that all compile', () => {
    expect(data.source).toMatch(/gitleaks/);
    expect(data.version).toMatch(/^v8\./);
    expect(data.rules.length).toBeGreaterThan(200);
    for (const r of ruleSet().rules) expect(r.re.flags).toContain('g');
    expect(ruleSet().rules.every((r) => r.keywords.length > 0)).toBe(true);
  });
});

describe('KeywordIndex', () => {
  it('finds every keyword occurrence, overlapping ones too, ASCII case folded', () => {
    const k = new KeywordIndex(['he', 'she', 'hers', 'ghp_']);
    const hits = k.find('uSHErs GHP_x she');
    expect(Object.fromEntries([...hits].map(([i, at]) => [k.keywords[i], at]))).toEqual({
      she: [1, 13],
      he: [2, 14],
      hers: [2],
      ghp_: [7],
    });
    expect(k.prefixes('HERSELF').map((i) => k.keywords[i])).toEqual(['he', 'hers']);
  });
});
