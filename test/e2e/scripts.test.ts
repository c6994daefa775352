/** Scripts stay deterministic: a question never eats the script's next command; summarize --yes/--no asks nothing. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMemory } from '../../src/memory/store';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

describe('piped scripts', () => {
  it('a line that is no answer to [y/N] is answered no, warned about, and runs as typed', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    const r = await runAish(data, { home, env: fake.env(), input: ':remember first\n:memory clear\n:remember second\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'aish: warning: ":remember second" is not an answer to "forget all 1 memory item? [y/N]" — answered no (as Enter); the line runs as typed\n',
    );
    expect(loadMemory(join(home, 'd', 'memory.jsonl')).items.map((i) => i.content)).toEqual(['second', 'first']);
  });

  it('a question whose Enter is not "no" (the stale review: Enter skips) says "taken as Enter", and forgets nothing', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    mkdirSync(join(home, 'd'), { recursive: true });
    writeFileSync(join(home, 'd', 'memory.jsonl'), '{"id":1,"ts":"2024-01-01T00:00:00Z","kind":"fact","content":"old host is db-1"}\n', {
      mode: 0o600,
    });
    const r = await runAish(data, { home, env: fake.env(), input: ':memory review --stale\n:remember next\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'aish: warning: ":remember next" is not an answer to "keep? [y/n/e/s/q]" — taken as Enter; the line runs as typed\n',
    );
    expect(loadMemory(join(home, 'd', 'memory.jsonl')).items.map((i) => i.content)).toEqual(['next', 'old host is db-1']);
  });

  it('the :do menu and its yes question never eat the next command either', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    fake.server.enqueue({ text: 'COMMAND: ls -la\nEXPLANATION: lists the files' });
    const r = await runAish(data, { home, env: fake.env(), input: ':do list the files\n:remember kept going\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('":remember kept going" is not an answer to "[e]xecute [r]evise [d]escribe [c]opy [q]uit:"');
    expect(loadMemory(join(home, 'd', 'memory.jsonl')).items.map((i) => i.content)).toEqual(['kept going']);
  });

  it(':memory summarize with a line that is no answer: one warning, and each answer its own line', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    fake.server.enqueue({ text: 'noted' }, { text: 'fact: the build uses esbuild\npref: terse answers\nfact: CI runs nightly' });
    const r = await runAish(data, {
      home,
      env: fake.env(),
      input: 'we use esbuild\n:memory summarize\n:remember kept going\ny\n',
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'aish: warning: ":remember kept going" is not an answer to "keep? [y/N/edit]" — answered no (as Enter); the line runs as typed\n',
    );
    // The first candidate: no (the stray line); the second: y; the third: end of input, no.
    expect(
      loadMemory(join(home, 'd', 'memory.jsonl'))
        .items.map((i) => i.content)
        .sort(),
    ).toEqual(['kept going', 'terse answers']);
  });

  it(':memory summarize --yes keeps every new candidate without asking, --no keeps none; duplicates are never kept', async () => {
    const home = tmpDir();
    const data = ['--data-dir', join(home, 'd')];
    fake.server.enqueue(
      { text: 'noted' },
      { text: 'fact: the build uses esbuild\npref: terse answers\nfact: first thing' },
      { text: 'fact: the CI runs nightly' },
    );
    const r = await runAish(data, {
      home,
      env: fake.env(),
      input: ':remember first thing\nwe use esbuild\n:memory summarize --yes\n:memory summarize --no\n:quit\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('keep? yes (--yes)');
    expect(r.stdout).toContain('keep? no (--no)');
    expect(
      loadMemory(join(home, 'd', 'memory.jsonl'))
        .items.map((i) => i.content)
        .sort(),
    ).toEqual(['first thing', 'terse answers', 'the build uses esbuild']);
    const bad = await runAish(data, { home, env: fake.env(), input: ':memory summarize --maybe\n' });
    expect(bad.stderr).toContain('usage: :memory summarize [--yes|--no]');
  });
});
