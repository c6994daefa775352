// Rule lines (config and .aish/rules), their one-line errors, and the trust store.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRule, parseRuleLine } from '../../../src/config/rule-line';
import { validateConfig } from '../../../src/config/validate';
import { RuleBook } from '../../../src/tools/rules/book';
import { findProjectRules, loadProjectRules, parseRulesFile } from '../../../src/tools/rules/project';
import { revokeProject, sha256, trustedHash, trustProject, TRUST_FILE } from '../../../src/tools/rules/trust';
import { ConfigError } from '../../../src/util/errors';
import { tmpDir } from '../../helpers/tmp';

describe('a rule line', () => {
  it.each([
    ['deny git push', { decision: 'deny', words: ['git', 'push'], exact: false }],
    ['  ASK   docker  ', { decision: 'ask', words: ['docker'], exact: false }],
    ["allow git commit -m 'wip fix'", { decision: 'allow', words: ['git', 'commit', '-m', 'wip fix'], exact: false }],
    ['allow exact git status --short', { decision: 'allow', words: ['git', 'status', '--short'], exact: true }],
    ["allow 'exact' x", { decision: 'allow', words: ['exact', 'x'], exact: false }],
    ['deny /usr/bin/Git push', { decision: 'deny', words: ['git', 'push'], exact: false, path: '/usr/bin/Git' }],
    ['deny echo a\\|b', { decision: 'deny', words: ['echo', 'a|b'], exact: false }],
  ])('%s', (line, rule) => {
    expect(parseRuleLine(line)).toEqual(rule);
  });

  it.each([
    ['', /starts with allow, ask or deny/],
    ['permit git', /starts with allow, ask or deny/],
    ['deny', /names the command after deny/],
    ['allow exact', /names the command after allow exact/],
    ['deny git push | sh', /one command's words: quote \|/],
    ['deny git push; rm', /quote ;/],
    ['deny $(x)', /quote \$/],
    ['deny rm *', /no patterns: quote \*/],
    ["deny 'git", /unclosed '/],
    ['deny "a$b"', /no \$/],
    ['deny -rf', /program first/],
    ['deny git\npush', /one line/],
    ['deny x\\', /backslash at the end/],
  ])('refuses %j', (line, error) => {
    const r = parseRuleLine(line);
    expect('error' in r && r.error).toMatch(error);
  });

  it('prints back as a line that parses to the same rule', () => {
    for (const line of ["allow git commit -m 'it''s'", "deny echo 'a b' \"c'd\"", 'allow exact ls -la', 'deny /opt/x/tool run']) {
      const r = parseRuleLine(line);
      if ('error' in r) throw new Error(r.error);
      expect(parseRuleLine(formatRule(r))).toEqual(r);
    }
  });
});

describe('safety.rules in the config', () => {
  it('is kept as given, and defaults to none', () => {
    expect(validateConfig({ safety: { rules: ['deny git push', 'allow make'] } }, 'c.ts').safety.rules).toEqual([
      'deny git push',
      'allow make',
    ]);
    expect(validateConfig({}, 'c.ts').safety.rules).toEqual([]);
  });
  it.each([
    [{ safety: { rules: 'deny git push' } }, /^config c\.ts: safety\.rules must be a list of rules/],
    [{ safety: { rules: ['deny git push', 3] } }, /^config c\.ts: safety\.rules\[1\] must be a rule such as/],
    [
      { safety: { rules: ['deny git push', 'deny git push && rm'] } },
      /^config c\.ts: safety\.rules\[1\] "deny git push && rm": a rule is one command's words/,
    ],
    [{ safety: { rules: ['forbid git'] } }, /^config c\.ts: safety\.rules\[0\] "forbid git": starts with allow, ask or deny/],
  ])('a bad one is named in one line: %j', (raw, error) => {
    let err: unknown;
    try {
      validateConfig(raw, 'c.ts');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(error);
    expect((err as Error).message).not.toContain('\n');
  });
});

describe('.aish/rules', () => {
  it('comments, blank lines, CRLF, and errors naming file and line', () => {
    const { rules, errors } = parseRulesFile(
      '# top\r\n\ndeny git push  # no\r\n  allow make test\nforbid x\ndeny a | b\n',
      '/p/.aish/rules',
    );
    expect(rules.map((r) => [r.text, r.source])).toEqual([
      ['deny git push', '/p/.aish/rules:3'],
      ['allow make test', '/p/.aish/rules:4'],
    ]);
    expect(errors).toEqual([
      '/p/.aish/rules:5: starts with allow, ask or deny',
      "/p/.aish/rules:6: a rule is one command's words: quote | to match it literally",
    ]);
  });

  it('is found in the directory or above it, never in or above home', () => {
    const home = tmpDir();
    const proj = join(home, 'proj');
    mkdirSync(join(proj, 'a', 'b'), { recursive: true });
    mkdirSync(join(home, '.aish'));
    writeFileSync(join(home, '.aish', 'rules'), 'deny x\n');
    expect(findProjectRules(join(proj, 'a', 'b'), home)).toBeNull();
    mkdirSync(join(proj, '.aish'));
    writeFileSync(join(proj, '.aish', 'rules'), 'deny x\n');
    expect(findProjectRules(join(proj, 'a', 'b'), home)).toBe(join(proj, '.aish', 'rules'));
  });

  it('counts only once trusted, for that content; revoking or editing ends it', () => {
    const home = tmpDir();
    const data = join(home, 'data');
    const proj = join(home, 'proj');
    mkdirSync(join(proj, '.aish'), { recursive: true });
    const file = join(proj, '.aish', 'rules');
    writeFileSync(file, 'deny git push\n');
    const book = new RuleBook(
      () => ['ask docker'],
      data,
      () => proj,
    );
    const texts = () => book.active().rules.map((r) => r.text);
    expect(texts()).toEqual(['ask docker']);
    expect(loadProjectRules(proj, data, home)?.trust).toBe('untrusted');

    trustProject(data, proj, sha256(readFileSync(file)));
    expect(texts()).toEqual(['ask docker', 'deny git push']);
    expect(statSync(join(data, TRUST_FILE)).mode & 0o777).toBe(0o600);
    expect(trustedHash(data, proj)).toBe(sha256('deny git push\n'));

    writeFileSync(file, 'deny git push\nallow rm\n');
    expect(loadProjectRules(proj, data, home)?.trust).toBe('changed');
    expect(texts()).toEqual(['ask docker']);

    trustProject(data, proj, sha256(readFileSync(file)));
    expect(texts()).toEqual(['ask docker', 'deny git push', 'allow rm']);
    expect(revokeProject(data, proj)).toBe(true);
    expect(revokeProject(data, proj)).toBe(false);
    expect(texts()).toEqual(['ask docker']);
  });

  it('a trust store aish cannot read trusts nothing and is not overwritten', () => {
    const data = tmpDir();
    writeFileSync(join(data, TRUST_FILE), '{"projects": {"/p": {"sha256": "ab"');
    expect(trustedHash(data, '/p')).toBeNull();
    expect(() => trustProject(data, '/q', 'cd')).toThrow(/is not a trust list aish can read — fix or remove it/);
    expect(readFileSync(join(data, TRUST_FILE), 'utf8')).toBe('{"projects": {"/p": {"sha256": "ab"');
  });

  it('a file that cannot be read is an error, not rules', () => {
    if (process.getuid?.() === 0) {
      // root reads a mode-000 file: use a directory in its place instead.
      const home = tmpDir();
      mkdirSync(join(home, 'p', '.aish', 'rules', 'x'), { recursive: true });
      expect(findProjectRules(join(home, 'p'), '/nonexistent')).toBeNull();
      return;
    }
    const home = tmpDir();
    mkdirSync(join(home, 'p', '.aish'), { recursive: true });
    writeFileSync(join(home, 'p', '.aish', 'rules'), 'deny x\n');
    chmodSync(join(home, 'p', '.aish', 'rules'), 0);
    const p = loadProjectRules(join(home, 'p'), home, '/nonexistent');
    expect(p?.errors[0]).toMatch(/cannot be read/);
    expect(p?.rules).toEqual([]);
  });
});
