/**
 * What reaches the model from memory, checked in the request bodies the fake OpenAI server
 * received: [recall] for relevant old items, pins, project scope, the budget, and what is logged.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AishConfig } from '../../src/config/types';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { systemText, type RecordedRequest } from '../helpers/openai-server';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const startDir = process.cwd();
afterEach(() => process.chdir(startDir));

const TOPICS = [
  'the build uses esbuild',
  'tests run with vitest',
  'the CI image is debian',
  'logs rotate weekly',
  'the linter is strict',
  'docs live in docs/',
  'releases are tagged',
];

/** A memory file: one old item, then `newer` items written after it. */
function memoryFile(path: string, old: Record<string, unknown>[], newer: number): void {
  const lines = old.map((o, i) => JSON.stringify({ id: i + 1, ts: `2025-01-0${i + 1}T10:00:00Z`, kind: 'fact', ...o }));
  for (let k = 0; k < newer; k++) {
    const id = old.length + 1 + k;
    const ts = new Date(Date.UTC(2026, 0, 1) + k * 60_000).toISOString();
    lines.push(JSON.stringify({ id, ts, kind: 'fact', content: `note ${k}: ${TOPICS[k % TOPICS.length]} (entry ${k})` }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

async function engineIn(
  cwd: string,
  opts: {
    memory?: Partial<Exclude<AishConfig['memory'], false>>;
    ask?: (q: string) => Promise<string | null>;
    noMemory?: boolean;
    seed?: (memoryPath: string) => void;
  } = {},
) {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), ...fake.env() };
  const s = await setup({}, env);
  if (opts.memory && s.config.memory) Object.assign(s.config.memory, opts.memory);
  // Norris and :tools look for bubblewrap (a process); unit tests start none.
  s.config.safety.sandbox = 'off';
  mkdirSync(s.paths.dataDir, { recursive: true });
  // Written before start-up, as a user's file would be.
  opts.seed?.(s.paths.memoryPath);
  const printed: OutputItem[] = [];
  const host: EngineHost = {
    print: (i) => printed.push(i),
    liveStart() {},
    liveText() {},
    liveEnd() {},
    ask: opts.ask ?? (async () => null),
  };
  process.chdir(cwd);
  const [engine, input] = Engine.compose(s, host, { env, ...(opts.noMemory && { memory: false }) }, routerFor);
  engine.start();
  return { s, engine, input, printed };
}

function lastUser(req: RecordedRequest): string {
  const msgs = req.body.messages as Array<{ role: string; content: string }>;
  return msgs.filter((m) => m.role === 'user').at(-1)!.content;
}

describe('[recall] and [background] in the request', () => {
  it('sends an old relevant item in [recall] with its id (300 newer items), and nothing for an unrelated prompt', async () => {
    const { s, input, printed } = await engineIn(tmpDir(), {
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 300),
    });
    await input.submit('where does the staging database live?');
    await input.submit('write a haiku about autumn leaves');
    expect(printed.filter((p) => p.kind === 'error')).toEqual([]);
    const [first, second] = fake.server.requests;
    expect(systemText(first!)).not.toContain('zebra-17'); // not in [background]: 300 newer items fill it
    const sent = lastUser(first!);
    // Only the item the message is about: the notes that merely share "live" stay out.
    // Its line ends with the day it was written and, over three months ago, its age.
    expect(sent).toMatch(
      /^\[recall\] [^\n]*\n- #1 \(fact\) the staging database lives on host zebra-17 \(2025-01-01, \d+ years? old\)\n\nwhere does the staging database live\?$/,
    );
    expect(lastUser(second!)).toBe('write a haiku about autumn leaves');
    // The log keeps the user's own words, and which ids were recalled.
    const log = readFileSync(join(s.paths.sessionsDir, readdirSync(s.paths.sessionsDir)[0]!), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const users = log.filter((t) => t.role === 'user');
    expect(users[0]).toMatchObject({ content: 'where does the staging database live?', recall: [1] });
    expect(users[1]).not.toHaveProperty('recall');
    expect(users[1]!.content).toBe('write a haiku about autumn leaves');
  });

  it("keeps a turn's [recall] with its message in later requests (a stable prefix), never in the system prompt", async () => {
    const { input } = await engineIn(tmpDir(), {
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 300),
    });
    await input.submit('where does the staging database live?');
    await input.submit('thanks');
    const second = fake.server.requests[1]!;
    const users = (second.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'user');
    expect(users[0]!.content).toContain('- #1 (fact) the staging database lives on host zebra-17');
    expect(systemText(second)).not.toContain('[recall]');
  });

  it('Norris leaves both blocks out, also the [recall] of turns before it', async () => {
    const { input } = await engineIn(tmpDir(), {
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 300),
    });
    fake.server.enqueue({ text: 'On zebra-17.' }); // not the default echo, which would repeat the block
    await input.submit('where does the staging database live?');
    expect(JSON.stringify(fake.server.requests[0]!.body.messages)).toContain('[recall]');
    await input.submit(':norris find the staging database host');
    const norrisReqs = fake.server.requests.slice(1);
    expect(norrisReqs.length).toBeGreaterThan(0);
    for (const r of norrisReqs) {
      expect(JSON.stringify(r.body.messages)).not.toContain('[recall]');
      expect(systemText(r)).not.toContain('[background]');
    }
  });

  it('a pinned item is in [background] despite 300 newer items; unpinned, it is not', async () => {
    const { input } = await engineIn(tmpDir(), { seed: (p) => memoryFile(p, [{ content: 'always answer in British English' }], 300) });
    await input.submit(':memory pin 1');
    await input.submit('hello');
    expect(systemText(fake.server.requests[0]!)).toMatch(
      /\[background\][^\n]*\n- \(fact\) always answer in British English \(2025-01-01, \d+ years? old\)\n/,
    );
    await input.submit(':memory unpin 1');
    await input.submit('hello again');
    expect(systemText(fake.server.requests[1]!)).not.toContain('British English');
  });

  it('a project item is sent in its repository (also after :cd into it) and not in another', async () => {
    const root = tmpDir();
    const a = join(root, 'repo-a');
    const b = join(root, 'repo-b');
    for (const d of [a, b]) mkdirSync(join(d, '.git'), { recursive: true });
    mkdirSync(join(a, 'src'));
    const inA = await engineIn(join(a, 'src'));
    await inA.input.submit(':remember --project repo a deploys with the blue-green script');
    await inA.input.submit('hi from a');
    expect(systemText(fake.server.requests[0]!)).toContain('repo a deploys with the blue-green script');
    await inA.input.submit(`:cd ${b}`);
    await inA.input.submit('hi from b');
    expect(systemText(fake.server.requests[1]!)).not.toContain('blue-green');
    await inA.input.submit(`:cd ${a}`);
    await inA.input.submit('hi from a again');
    expect(systemText(fake.server.requests[2]!)).toContain('blue-green');
    // The item records the repository's root, not the subdirectory it was added in.
    const stored = readFileSync(inA.s.paths.memoryPath, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(stored.find((r) => r.content === 'repo a deploys with the blue-green script')?.scope).toBe(a);
  });

  it('an oversized newest item no longer empties [background], and the block with its header fits the budget', async () => {
    const { input } = await engineIn(tmpDir(), {
      seed: (p) =>
        writeFileSync(
          p,
          [
            JSON.stringify({ id: 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'an older small fact' }),
            JSON.stringify({ id: 2, ts: '2026-01-02T00:00:00Z', kind: 'fact', content: 'x'.repeat(2100) }),
          ].join('\n') + '\n',
        ),
    });
    await input.submit('hello');
    const sys = systemText(fake.server.requests[0]!);
    const block = sys.slice(sys.indexOf('[background]'));
    expect(block).toContain('- (fact) an older small fact');
    expect(block).not.toContain('xxxx');
    expect(block.length).toBeLessThanOrEqual(2000);
  });

  it('a recall that fails warns once and the turns go on without it', async () => {
    // memory.jsonl is a directory: nothing can be read, every turn must still be answered.
    const { input, printed } = await engineIn(tmpDir(), { seed: (p) => mkdirSync(p) });
    await input.submit('first question');
    await input.submit('second question');
    expect(fake.server.requests.map(lastUser)).toEqual(['first question', 'second question']);
    expect(printed.filter((p) => p.kind === 'warn' && p.text.startsWith('memory recall skipped:'))).toHaveLength(1);
  });

  it.each([
    ['memory.recall.enabled: false', { memory: { recall: { enabled: false, maxChars: 1200, minScore: 2 } } }],
    ['--no-memory', { noMemory: true }],
  ])('%s sends no [recall]', async (_name, opts) => {
    const { input } = await engineIn(tmpDir(), {
      ...opts,
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 3),
    });
    await input.submit('where does the staging database live?');
    expect(lastUser(fake.server.requests[0]!)).toBe('where does the staging database live?');
    if ('noMemory' in opts) expect(systemText(fake.server.requests[0]!)).not.toContain('[background]');
  });
});

describe('the memory tools', () => {
  it('memory_search runs unasked and answers with ids; memory_remember asks "remember? [y/N]" showing the text, and stores it redacted', async () => {
    const asked: string[] = [];
    const { s, input, printed } = await engineIn(tmpDir(), {
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 30),
      ask: async (q: string) => (asked.push(q), 'y'),
    });
    fake.server.enqueue(
      { toolCalls: [{ name: 'memory_search', arguments: '{"query":"staging database"}' }] },
      {
        toolCalls: [
          {
            name: 'memory_remember',
            arguments: JSON.stringify({ kind: 'fact', content: 'deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789' }),
          },
        ],
      },
      { text: 'done' },
    );
    await input.submit('look it up and remember the token');
    const toolMsgs = (fake.server.requests[1]!.body.messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'tool');
    expect(toolMsgs[0]!.content).toContain('#1 (fact) the staging database lives on host zebra-17');
    expect(asked).toEqual(['remember? [y/N] ']);
    const shown = printed.map((p) => p.text).join('\n');
    expect(shown).toContain('⏵ memory_remember (fact) deploy token is');
    const stored = readFileSync(s.paths.memoryPath, 'utf8');
    expect(stored).toContain('deploy token is [redacted]');
    expect(stored).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    await input.submit(':tools');
    expect(printed.at(-1)!.text).toMatch(/memory_search[^\n]*read-only[\s\S]*memory_remember/);
  });

  it('memory_remember is refused, and nothing written, when nobody can answer', async () => {
    const { s, input, printed } = await engineIn(tmpDir());
    fake.server.enqueue(
      { toolCalls: [{ name: 'memory_remember', arguments: '{"kind":"pref","content":"likes long answers"}' }] },
      { text: 'ok' },
    );
    await input.submit('remember that I like long answers');
    expect(printed.some((p) => p.kind === 'warn' && /refused: memory_remember/.test(p.text))).toBe(true);
    const toolMsg = (fake.server.requests[1]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === 'tool');
    expect(toolMsg!.content).toMatch(/^Not remembered/);
    expect(() => readFileSync(s.paths.memoryPath, 'utf8')).toThrow();
  });

  it('a declined memory_remember writes nothing', async () => {
    const { s, input } = await engineIn(tmpDir(), { ask: async () => 'n' });
    fake.server.enqueue(
      { toolCalls: [{ name: 'memory_remember', arguments: '{"kind":"pref","content":"likes long answers"}' }] },
      { text: 'ok' },
    );
    await input.submit('remember that I like long answers');
    expect(() => readFileSync(s.paths.memoryPath, 'utf8')).toThrow();
  });
});

describe(':memory pin, plan, search, list --here, :remember', () => {
  it(':remember of text already remembered writes nothing and names the item', async () => {
    const { s, input, printed } = await engineIn(tmpDir());
    await input.submit(':remember  Deploys go through CI ');
    await input.submit(':remember deploys go through ci');
    expect(printed.at(-1)!.text).toBe('already remembered as #1; nothing written');
    expect(readFileSync(s.paths.memoryPath, 'utf8').trim().split('\n')).toHaveLength(2); // header + one item
  });

  it(':memory plan shows both blocks with scores and every left-out item with its reason', async () => {
    const root = tmpDir();
    const { input, printed } = await engineIn(root, {
      seed: (p) => {
        memoryFile(
          p,
          [{ content: 'the staging database lives on host zebra-17' }, { content: 'other repo fact', scope: '/nowhere/else' }],
          100,
        );
      },
    });
    await input.submit(':memory plan where does the staging database live?');
    const text = printed.at(-1)!.text;
    expect(text).toMatch(/^\[background\] \d+ items \(system prompt\)/);
    expect(text).toMatch(
      /\[recall\] 1 item for "where does the staging database live\?"[^\n]*\n +\d+\.\d\d {2}#1 \(fact\) the staging database lives on host zebra-17/,
    );
    expect(text).toMatch(/left out: \d+ \(scope 1, below threshold \d+\)/);
    expect(text).toMatch(/scope +#2 \(fact\) other repo fact {2}\[project \/nowhere\/else\]/);
  });

  it(":memory search ranks every project's items; :memory list --here only what applies", async () => {
    const { input, printed } = await engineIn(tmpDir(), {
      seed: (p) =>
        memoryFile(
          p,
          [
            { content: 'the staging database lives on host zebra-17' },
            { content: 'staging database of the other repo', scope: '/nowhere/else' },
          ],
          5,
        ),
    });
    await input.submit(':memory search staging database');
    const hits = printed.at(-1)!.text.split('\n');
    expect(hits).toHaveLength(2);
    expect(hits.join('\n')).toContain('#2 (fact) staging database of the other repo  [project /nowhere/else]');
    await input.submit(':memory list --here');
    const list = printed.at(-1)!.text;
    expect(list).not.toContain('other repo');
    expect(list).toContain('6 items apply here (of 7)');
  });

  it('says at start and on :memory pin which pinned items do not fit [background], keeping the most recently pinned', async () => {
    const long = (n: number) => ({ content: `pinned note ${n} ${'x'.repeat(900)}`, pinned: true });
    const { input, printed } = await engineIn(tmpDir(), { seed: (p) => memoryFile(p, [long(1), long(2), long(3)], 2) });
    await input.submit(':memory list');
    const over =
      /^pinned item left out of \[background\] \(budget\): #1 — pinned memory needs \d+ characters, more than memory\.injectMaxChars \(2000\)/;
    expect(printed.filter((p) => p.kind === 'warn' && over.test(p.text))).toHaveLength(1);
    await input.submit(':memory unpin 3');
    expect(printed.at(-1)).toMatchObject({ kind: 'info', text: 'memory: pinned #1 in [background] again (no longer left out for budget)' });
    await input.submit(':memory pin 3');
    expect(printed.at(-1)).toMatchObject({ kind: 'warn' });
    expect(printed.at(-1)!.text).toMatch(over);
  });

  it('a hand edit followed by :memory inject is honoured by [recall] too', async () => {
    const { s, input } = await engineIn(tmpDir(), {
      seed: (p) => memoryFile(p, [{ content: 'the staging database lives on host zebra-17' }], 300),
    });
    await input.submit('where does the staging database live?');
    expect(lastUser(fake.server.requests[0]!)).toContain('zebra-17');
    // Rewrite the file as an editor would: same id, new text.
    const text = readFileSync(s.paths.memoryPath, 'utf8').replace('host zebra-17', 'host okapi-3');
    writeFileSync(s.paths.memoryPath + '.tmp', text);
    renameSync(s.paths.memoryPath + '.tmp', s.paths.memoryPath);
    await input.submit(':memory inject');
    await input.submit('where does the staging database live?');
    const sent = lastUser(fake.server.requests[1]!);
    expect(sent).toContain('- #1 (fact) the staging database lives on host okapi-3');
    expect(sent).not.toContain('zebra-17');
  });

  it('warns at start about a tombstone for an id that has no item, and a new item is never born forgotten', async () => {
    const { s, input, printed } = await engineIn(tmpDir(), {
      seed: (p) =>
        writeFileSync(
          p,
          [
            '{"id":1,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"one"}',
            '{"id":2,"ts":"2026-01-01T00:00:01Z","kind":"forget","target":3}',
          ].join('\n') + '\n',
        ),
    });
    await input.submit(':remember a brand new fact');
    expect(printed.some((p) => p.kind === 'warn' && /1 tombstone for ids with no item \(line 2\)/.test(p.text))).toBe(true);
    expect(printed.at(-1)!.text).toMatch(/^memory: added 4 \(fact\)/);
    await input.submit('hello');
    expect(systemText(fake.server.requests[0]!)).toContain('- (fact) a brand new fact');
    expect(readFileSync(s.paths.memoryPath, 'utf8')).toContain('"id":4');
  });
});
