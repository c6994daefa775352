/** The memory inbox through the real CLI: `:memory review` piped into aish, `aish memory review --json`, concurrent writers. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InboxCandidate } from '../../src/memory/review/inbox-types';
import { loadMemory } from '../../src/memory/store';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { startWorker } from '../helpers/processes';
import { spawnAish } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const TS = '2026-01-01T00:00:00.000Z';
const cand = (id: number, content: string, extra: Partial<InboxCandidate> = {}): InboxCandidate => ({
  id,
  ts: TS,
  kind: 'fact',
  content,
  source: { session: 'sess-a' },
  ...extra,
});
const jsonl = (recs: object[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
const records = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A data dir that already holds inbox.jsonl (and memory.jsonl when given). */
function prepared(inbox: string, memory?: object[]): { home: string; data: string; args: string[] } {
  const home = tmpDir();
  const data = join(home, 'data');
  mkdirSync(data, { mode: 0o700 });
  writeFileSync(join(data, 'inbox.jsonl'), inbox, { mode: 0o600 });
  if (memory) writeFileSync(join(data, 'memory.jsonl'), jsonl(memory), { mode: 0o600 });
  return { home, data, args: ['--data-dir', data] };
}

// Answers left over when another reviewer took a candidate are read as prompts: the fake server echoes them.
const fake = useFakeOpenAI();

describe(':memory review (real aish, piped)', () => {
  it('y / n / e / s: memory gets exactly the kept ones (the edited text for e); decisions are recorded, the skipped one stays', async () => {
    const { home, data, args } = prepared(
      jsonl([
        cand(1, 'alpha one', { source: { session: 'sess-a', quote: 'we said alpha' } }),
        cand(2, 'beta two'),
        cand(3, 'gamma three', { kind: 'pref' }),
        cand(4, 'delta four'),
      ]),
    );
    const r = await runAish(args, { home, env: fake.env(), input: ':memory review\ny\nn\ne\nedited text\ns\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[inbox] 1/4 (fact) alpha one  — from session sess-a: "we said alpha"');
    expect(r.stdout).toContain('[aish] review: kept 2, dropped 1, skipped 1; 1 still waiting');
    const mem = loadMemory(join(data, 'memory.jsonl'));
    expect(mem.items.map((i) => [i.kind, i.content, i.source])).toEqual([
      ['pref', 'edited text', 'session:sess-a'],
      ['fact', 'alpha one', 'session:sess-a'],
    ]);
    const decisions = records(join(data, 'inbox.jsonl')).filter((x) => 'review' in x);
    expect(decisions.map((d) => [d.review, d.action, d.item])).toEqual([
      [1, 'keep', 1],
      [2, 'drop', undefined],
      [3, 'keep', 2],
    ]);
    const json = await runAish([...args, 'memory', 'review', '--json'], { home, env: fake.env() });
    expect((JSON.parse(json.stdout) as InboxCandidate[]).map((c) => c.content)).toEqual(['delta four']);
  });

  it('keeping a superseding candidate writes the new item and the tombstone of the old one in one append', async () => {
    const { home, data, args } = prepared(jsonl([cand(1, 'Uses Node 20 in CI', { supersedes: 1 })]), [
      { id: 1, ts: TS, kind: 'fact', content: 'Uses Node 18 in CI' },
    ]);
    // Every write(2) of the CLI that carries a memory record is logged, to see how the records were written.
    const log = join(home, 'writes.log');
    const preload = join(home, 'log-writes.cjs');
    writeFileSync(
      preload,
      `const fs = require('node:fs');
const real = fs.writeSync;
let busy = false;
fs.writeSync = function (fd, buf, ...rest) {
  if (!busy && typeof buf !== 'string' && Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).includes('"ts"')) {
    busy = true;
    try { fs.appendFileSync(process.env.WRITE_LOG, JSON.stringify(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8')) + '\\n'); } finally { busy = false; }
  }
  return real.call(fs, fd, buf, ...rest);
};
require('node:module').syncBuiltinESMExports();
`,
    );
    const r = await runAish(args, {
      home,
      env: { ...fake.env(), NODE_OPTIONS: `--require ${preload}`, WRITE_LOG: log },
      input: ':memory review\ny\n',
    });
    expect(r.stdout).toContain('  old #1 (fact): Uses Node 18 in CI\n');
    expect(r.stdout).toContain('  new    (fact): Uses Node 20 in CI\n');
    expect(r.stdout).toContain('kept as #2, forgot #1');
    const lines = readFileSync(join(data, 'memory.jsonl'), 'utf8').split('\n').filter(Boolean);
    const [item, tomb] = lines.slice(-2).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(item).toMatchObject({ id: 2, kind: 'fact', content: 'Uses Node 20 in CI', source: 'session:sess-a' });
    expect(tomb).toMatchObject({ id: 3, kind: 'forget', target: 1 });
    const writes = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as string);
    const memoryWrites = writes.filter((w) => w.includes('Uses Node 20 in CI') || w.includes('"forget"'));
    // One write holds both lines, exactly as they stand in the file.
    expect(memoryWrites.filter((w) => !w.includes('"review"'))).toEqual([lines.slice(-2).join('\n') + '\n']);
    expect(loadMemory(join(data, 'memory.jsonl')).items.map((i) => i.content)).toEqual(['Uses Node 20 in CI']);
  });

  it('a torn last line of inbox.jsonl is skipped with a warning; the rest is reviewed', async () => {
    const { home, data, args } = prepared(jsonl([cand(1, 'kept despite the tear')]) + '{"id":2,"ts":"2026-01-01T00:00:00Z","kind":"fa');
    const json = await runAish([...args, 'memory', 'review', '--json'], { home, env: fake.env() });
    expect(json.code).toBe(0);
    expect(json.stderr).toContain('inbox.jsonl:2: torn last line');
    expect((JSON.parse(json.stdout) as InboxCandidate[]).map((c) => c.id)).toEqual([1]);
    const r = await runAish(args, { home, env: fake.env(), input: ':memory review\ny\n' });
    expect(r.stdout + r.stderr).toContain('inbox.jsonl:2: torn last line');
    expect(r.stdout).toContain('kept as #1');
    const text = readFileSync(join(data, 'inbox.jsonl'), 'utf8');
    expect(text).toContain('"kind":"fa\n{"ts":'); // the decision starts on a fresh line
    expect(loadMemory(join(data, 'memory.jsonl')).items.map((i) => i.content)).toEqual(['kept despite the tear']);
  });
});

describe('aish memory review', () => {
  it('--json lists the pending candidates with the item each would replace; [] when none', async () => {
    const { home, args } = prepared(
      jsonl([
        cand(1, 'Uses Node 20 in CI', { supersedes: 1, redacted: ['openai'], source: { session: 's', quote: 'q' } }),
        cand(2, 'gone'),
        { ts: TS, review: 2, action: 'drop' },
      ]),
      [{ id: 1, ts: TS, kind: 'fact', content: 'Uses Node 18 in CI' }],
    );
    const r = await runAish([...args, 'memory', 'review', '--json'], { home, env: fake.env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      {
        id: 1,
        ts: TS,
        kind: 'fact',
        content: 'Uses Node 20 in CI',
        supersedes: 1,
        redacted: ['openai'],
        source: { session: 's', quote: 'q' },
        old: { id: 1, kind: 'fact', content: 'Uses Node 18 in CI' },
      },
    ]);
    const empty = prepared('');
    const e = await runAish([...empty.args, 'memory', 'review', '--json'], { home: empty.home, env: fake.env() });
    expect(JSON.parse(e.stdout)).toEqual([]);
  });

  it('without --json and without a terminal: exit 2, nothing written', async () => {
    const { home, data, args } = prepared(jsonl([cand(1, 'x')]));
    const before = readFileSync(join(data, 'inbox.jsonl'), 'utf8');
    const r = await runAish([...args, 'memory', 'review'], { home, env: fake.env(), input: 'y\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('aish: aish memory review needs a terminal — use --json to list, or :memory review in aish\n');
    expect(readFileSync(join(data, 'inbox.jsonl'), 'utf8')).toBe(before);
  });
});

describe('aish memory review in a terminal', () => {
  it('asks keep? [y/n/e/s] on the terminal; e pre-fills the text; Ctrl-D stops with the rest still waiting', async () => {
    const { home, data, args } = prepared(jsonl([cand(1, 'first one'), cand(2, 'second one'), cand(3, 'third one')]));
    const t = spawnAish([...args, 'memory', 'review'], { home });
    await t.waitFor('keep? [y/n/e/s]');
    t.write('y\r');
    await t.waitFor('kept as #1');
    const at = t.text().length;
    t.write('e\r');
    await t.waitFor('edit: second one', { from: at });
    t.write(' edited\r');
    await t.waitFor('kept as #2');
    t.write('\x04');
    expect(await t.exitCode(10_000)).toBe(0);
    expect(t.text()).toContain('[aish] review: kept 2, dropped 0, skipped 0; 1 still waiting');
    expect(loadMemory(join(data, 'memory.jsonl')).items.map((i) => i.content)).toEqual(['second one edited', 'first one']);
  });
});

describe('concurrent reviews and adds', () => {
  it('two reviewers and a writer leave a consistent inbox: distinct ids, one decision per candidate, no duplicate memory', async () => {
    const n = 30;
    const { home, data, args } = prepared(jsonl(Array.from({ length: n }, (_, i) => cand(i + 1, `seeded candidate ${i}`))));
    const writer = startWorker('inbox-writer', { memoryPath: join(data, 'memory.jsonl'), count: 40, tag: 'w' });
    const answers = ':memory review\n' + 'y\nn\n'.repeat(n);
    const [a, b, w] = await Promise.all([
      runAish(args, { home, env: fake.env(), input: answers }),
      runAish(args, { home, env: fake.env(), input: answers }),
      writer.exited,
    ]);
    expect([a.code, b.code, w]).toEqual([0, 0, { code: 0, signal: null }]);
    expect(writer.lines.filter((l) => l.startsWith('ok '))).toHaveLength(40);

    const text = readFileSync(join(data, 'inbox.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const recs = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const cands = recs.filter((r) => !('review' in r));
    const ids = cands.map((c) => c.id as number);
    expect(ids).toHaveLength(n + 40);
    expect(new Set(ids).size).toBe(n + 40);
    const decided = recs.filter((r) => 'review' in r).map((r) => r.review as number);
    expect(new Set(decided).size).toBe(decided.length); // never two decisions for one candidate
    for (const id of decided) expect(ids).toContain(id);
    expect(decided.length).toBeGreaterThanOrEqual(n);

    const mem = loadMemory(join(data, 'memory.jsonl'));
    expect(mem.skipped).toEqual([]);
    const contents = mem.items.map((i) => i.content);
    expect(new Set(contents).size).toBe(contents.length);
    const keptItems = recs.filter((r) => r.action === 'keep').map((r) => r.item as number);
    expect(new Set(mem.items.map((i) => i.id))).toEqual(new Set(keptItems));
  });
});
