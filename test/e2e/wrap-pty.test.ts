/**
 * aish's own lines in a narrow terminal: wrapped at spaces, no row starting with the space it broke
 * at, and a word longer than a row (`add|list|…`) cut after a `|` rather than inside a name.
 */
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ptySessions } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const start = ptySessions(() => fake.env());

/** The rows from the one containing `first` to the one containing `last`. */
function rowsBetween(lines: string[], first: string, last: string): string[] {
  const a = lines.findIndex((l) => l.includes(first));
  const b = lines.findIndex((l, i) => i >= a && l.includes(last));
  expect(a).toBeGreaterThanOrEqual(0);
  expect(b).toBeGreaterThanOrEqual(a);
  return lines.slice(a, b + 1);
}

describe('notices and errors at 40 columns', () => {
  it('an unknown :memory subcommand: the usage wraps at spaces and after |, never inside a word', async () => {
    const s = start(tmpDir(), [], { cols: 40, rows: 30 });
    await s.waitFor('fast');
    s.write(':memory lst\r');
    await s.waitFor('see :help memory');
    s.write('hello\r');
    await s.waitFor('echo: hello');
    s.write(':fork some-long-name\r');
    await s.waitFor(/on as session \S+/);
    await s.settle();
    const lines = s.screen.allLines();
    const usage = rowsBetween(lines, '✗ unknown :memory subcommand', 'see :help memory');
    const fork = rowsBetween(lines, 'saved as some-long-name', 'on as session');
    expect(fork.length).toBeGreaterThan(1);
    for (const row of [...usage, ...fork]) {
      expect(row).not.toMatch(/^ /);
      expect(row.length).toBeLessThanOrEqual(40);
    }
    // Each subcommand name is whole on one row.
    const names = usage
      .join('\n')
      .replace(/^[\s\S]*?usage:\s*:memory\s+/, '')
      .replace(/\s+—[\s\S]*$/, '');
    for (const row of names.split('\n')) expect(row).toMatch(/^([a-z-]+\|)*[a-z-]+\|?$/);
    expect(names.replace(/\n/g, '')).toContain('|forget|edit|clear|');
    s.write('\x04');
    expect(await s.exitCode()).toBe(0);
  });
});
