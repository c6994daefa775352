/** Memory in the shell: plain mode, -p, two processes; the PTY flows are in memory-pty.test.ts. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { startInteractive, type Interactive } from '../helpers/interactive';
import { systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI();

const env = () => ({ OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'sk-test' });
const memFile = (home: string) => join(home, '.local', 'share', 'aish', 'memory.jsonl');
const records = (home: string) =>
  readFileSync(memFile(home), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe(':memory in plain mode', () => {
  it(':memory forget of an unknown or forgotten id writes nothing and says so', async () => {
    const home = tmpDir();
    const r = await runAish([], { home, env: env(), input: ':remember keep this\n:memory forget 1\n' });
    expect(r.stdout).toBe('memory: added 1 (fact)\nmemory: forgot 1\n');
    const before = readFileSync(memFile(home));
    const r2 = await runAish([], { home, env: env(), input: ':memory forget 1\n:memory forget 99\n:memory forget abc\n' });
    // Errors like every other: on stderr, as `aish memory forget` says them.
    expect(r2.stdout).toBe('');
    expect(r2.stderr).toBe(
      'aish: memory 1 is already forgotten; nothing written\naish: no memory item 99; nothing written (see :memory list)\naish: "abc" is not a memory id — ids are whole numbers ≥ 1 (see :memory list)\n',
    );
    expect(readFileSync(memFile(home)).equals(before)).toBe(true);
  });

  it(':memory clear answered with Enter keeps everything; answered y forgets all', async () => {
    const home = tmpDir();
    await runAish([], { home, env: env(), input: ':remember one\n:memory add pref two\n:memory add context three\n' });
    const before = readFileSync(memFile(home));
    const kept = await runAish([], { home, env: env(), input: ':memory clear\n\n' });
    expect(kept.stdout).toBe('forget all 3 memory items? [y/N] \nkept all 3 items\n');
    expect(readFileSync(memFile(home)).equals(before)).toBe(true);
    const cleared = await runAish([], { home, env: env(), input: ':memory clear\ny\n:memory list\n' });
    expect(cleared.stdout).toBe('forget all 3 memory items? [y/N] \nmemory: forgot 3 items\nmemory is empty — add with :remember TEXT\n');
    const tombs = records(home).filter((r) => r.kind === 'forget');
    expect(tombs.map((t) => t.target).sort()).toEqual([1, 2, 3]);
  });

  it('a hand edit while the shell runs is picked up by :memory inject; the broken line is reported by number', async () => {
    const home = tmpDir();
    fake.server.setDefault({ text: 'ok' });
    const s = startInteractive([], { home, env: env() });
    s.send(':remember User likes tea.');
    await s.waitFor('memory: added 1 (fact)');
    appendFileSync(
      memFile(home),
      "{id: 7, ts: '2026-06-01T00:00:00Z', kind: 'context', content: 'Project uses pnpm',} // hand-added\nthis line is broken\n",
    );
    s.send(':memory inject');
    await s.waitFor(/memory: injected 2 of 2 items/);
    await s.waitFor('aish: warning: memory.jsonl:4: not valid JSON or JSON5', { stream: 'stderr' });
    s.send('hello');
    await s.waitFor('ok');
    expect(await s.end()).toBe(0);
    const sys = systemText(fake.server.requests.at(-1)!);
    expect(sys).toContain('- (fact) User likes tea.');
    expect(sys).toContain('- (context) Project uses pnpm');
  });

  it('additions and edits reach the next request; forgets leave it at once', async () => {
    const home = tmpDir();
    fake.server.setDefault((req) => ({ text: `n=${req.body.messages.length}` }));
    const r = await runAish([], {
      home,
      env: env(),
      // ids: 1 the fact; the edit writes 2 (new text) and 3 (tombstone of 1)
      input: ':remember first fact\nq1\n:memory edit 1 first fact, edited\nq2\n:memory forget 2\nq3\n',
    });
    expect(r.code).toBe(0);
    const sys = fake.server.requests.map((q) => systemText(q));
    expect(sys[0]).toContain('- (fact) first fact');
    expect(sys[1]).toContain('- (fact) first fact, edited');
    expect(sys[1]).not.toContain('- (fact) first fact\n');
    expect(sys[2]).not.toContain('[background]');
  });

  it('unknown subcommands and kinds are usage errors that keep the shell going', async () => {
    const r = await runAish([], { home: tmpDir(), env: env(), input: ':memory frob\n:memory add note x\n:remember\n:memory path\n' });
    expect(r.stderr.trim().split('\n')).toEqual([
      'aish: unknown :memory subcommand "frob" — usage: :memory add|list|plan|search|inject|pin|unpin|forget|edit|clear|summarize|review|log|undo|sync|share|trust-project|compact|path — see :help memory',
      'aish: unknown kind "note" — use fact, pref or context',
      'aish: nothing to remember — usage: :remember [--project] [--private] TEXT',
    ]);
    expect(r.stdout).toMatch(/memory\.jsonl\n$/);
  });
});

describe('memory and -p', () => {
  it('-p requests carry the [background] block; with --no-memory they do not', async () => {
    const home = tmpDir();
    await runAish(['memory', 'add', 'pref', 'Answer in one line.'], { home });
    fake.server.enqueue({ text: 'a' }, { text: 'b' });
    expect((await runAish(['-p', 'q'], { home, env: env() })).code).toBe(0);
    expect((await runAish(['--no-memory', '-p', 'q'], { home, env: env() })).code).toBe(0);
    const [withMem, without] = await fake.server.waitForRequests(2);
    expect(systemText(withMem!)).toMatch(
      /\[background\] \(memory loaded at startup; managed via :memory\)\n- \(pref\) Answer in one line\. \(\d{4}-\d{2}-\d{2}\)$/,
    );
    expect(systemText(without!)).not.toContain('[background]');
  });
});

describe('two shells on one data dir', () => {
  it('each :remember 50 items, interleaved: 100 distinct ids, nothing lost', async () => {
    const home = tmpDir();
    const a = startInteractive([], { home, env: env() });
    const b = startInteractive([], { home, env: env() });
    const added = (x: Interactive) => x.stdout().match(/memory: added \d+ \(fact\)/g)?.length ?? 0;
    for (let i = 0; i < 50; i++) {
      a.send(`:remember from A number ${i}`);
      b.send(`:remember from B number ${i}`);
      // Keep both writers busy throughout: after every 10 lines, wait until each has added at least
      // half of what it was sent, so neither finishes its share before the other starts.
      if (i % 10 === 9)
        await waitUntil(() => added(a) >= (i + 1) / 2 && added(b) >= (i + 1) / 2, `both shells to add ${(i + 1) / 2} items`);
    }
    expect(await a.end(30_000)).toBe(0);
    expect(await b.end(30_000)).toBe(0);
    expect(a.stderr() + b.stderr()).toBe('');
    const ids = [...(a.stdout() + b.stdout()).matchAll(/memory: added (\d+) \(fact\)/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    const items = records(home).filter((r) => r.kind === 'fact');
    expect(items).toHaveLength(100);
    expect(new Set(items.map((i) => i.id)).size).toBe(100);
    for (const who of ['A', 'B']) {
      const mine = items.filter((i) => String(i.content).startsWith(`from ${who}`)).map((i) => i.content);
      expect(mine).toEqual(Array.from({ length: 50 }, (_, i) => `from ${who} number ${i}`));
    }
  });
});

describe(':memory summarize', () => {
  it('uses the log not the context, the summarizer preset, y/n/edit, redaction and duplicate marks', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(
      cfg,
      "export default { models: { fast: { model: 'small-model' }, big: { model: 'summarizer-model' } }, memory: { summarizerModel: 'big' } };\n",
    );
    await runAish(['--config', cfg, 'memory', 'add', 'pref', 'User prefers terse responses.'], { home });
    fake.server.enqueue(
      { text: 'Noted: pnpm, and that key.' },
      {
        text: [
          '- fact: User builds with pnpm.',
          '- fact: AWS key is AKIAIOSFODNN7EXAMPLE for the deploy user.',
          '- pref: User prefers terse responses!',
          '- context: Project is a CLI.',
          '- fact: Deploys happen on Fridays.',
        ].join('\n'),
      },
      { text: 'fact: nothing new' },
    );
    const r = await runAish(['--config', cfg], {
      home,
      env: env(),
      input:
        [
          'I build with pnpm; deploys are on Fridays; AWS key AKIAIOSFODNN7EXAMPLE',
          ':memory summarize',
          'y', // pnpm
          'y', // the key, stored redacted
          '', // the duplicate: Enter skips
          'n', // context: no
          'edit', // Fridays: edit
          'Deploys happen on Friday afternoons.',
          ':memory summarize',
          'n',
        ].join('\n') + '\n',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[memory] candidate 2/5 (fact): AWS key is [redacted] for the deploy user.  (redacted: AWS access key)');
    expect(r.stdout).toMatch(/\[memory\] candidate 3\/5 \(pref\): User prefers terse responses! {2}\(duplicates memory 1 — skip it\?\)/);
    // Every candidate accounted for, with the ids kept; an edit shows what was stored.
    expect(r.stdout).toContain('kept as #4: Deploys happen on Friday afternoons.');
    expect(r.stdout).toContain('[aish] memory: added 3 candidates (#2, #3, #4), skipped 2');
    expect(r.stdout).toContain('[aish] memory: added 0 candidates, skipped 1');

    const [, first, second] = await fake.server.waitForRequests(3);
    expect(first!.body.model).toBe('summarizer-model');
    expect(first!.body.messages[1]!.content).toContain('user: I build with pnpm');
    // the second summarize sees neither the first one's answer nor its prompt
    const secondText = JSON.stringify(second!.body.messages);
    expect(secondText).not.toContain('User builds with pnpm.');
    expect(secondText).not.toContain('AWS key is');
    expect(second!.body.messages[1]!.content.match(/Transcript:/g)).toHaveLength(1);
    expect(second!.body.messages[1]!.content).toBe(first!.body.messages[1]!.content);

    // accepted items survive a restart, with provenance
    const list = JSON.parse((await runAish(['--config', cfg, 'memory', 'list', '--json'], { home })).stdout) as Array<{
      content: string;
      source?: string;
    }>;
    expect(list.map((i) => i.content)).toEqual([
      'Deploys happen on Friday afternoons.',
      'AWS key is [redacted] for the deploy user.',
      'User builds with pnpm.',
      'User prefers terse responses.',
    ]);
    expect(list[0]!.source).toMatch(/^session:\d{8}-\d{6}-\d+$/);
    expect(readFileSync(memFile(home), 'utf8')).not.toContain('AKIAIOSFODNN7EXAMPLE');
    // the answers were logged, tagged
    const log = readFileSync(join(home, '.local', 'share', 'aish', 'sessions', `${list[0]!.source!.slice(8)}.jsonl`), 'utf8');
    expect(log.split('\n').filter((l) => l.includes('"meta":"summarize"'))).toHaveLength(2);
  });
});
