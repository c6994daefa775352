/**
 * Behaviour unchanged: one scripted session of adds (the command line's fast path and the store's),
 * edits, pins, forgets, an import, syncs between two machines and a compaction writes the same
 * records as when the golden file (test/fixtures/memory-golden.json) was recorded. uids, clock
 * stamps and times are replaced by labels (the same uid gets the same label wherever it is named),
 * so a change in what is written, in which order, with which ids or which references, fails here.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/memory/store';
import { realPath } from '../../src/util/paths';
import { runAish } from '../helpers/run-cli';
import { git } from '../helpers/sync-machines';
import { tmpDir } from '../helpers/tmp';

const IMPORT_TS = '2024-05-01T10:00:00.000Z';

type Json = Record<string, unknown>;

/** Every record of both files, with what differs run to run replaced by stable labels. */
function normalise(files: Record<string, string>): Record<string, Json[]> {
  const labels = new Map<string, string>();
  const label = (kind: string, v: unknown): unknown => {
    if (typeof v !== 'string') return v;
    const key = `${kind}:${v}`;
    if (!labels.has(key)) labels.set(key, `<${kind}${[...labels.keys()].filter((k) => k.startsWith(`${kind}:`)).length + 1}>`);
    return labels.get(key);
  };
  const out: Record<string, Json[]> = {};
  for (const [name, text] of Object.entries(files)) {
    out[name] = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const r = JSON.parse(l) as Json;
        const n: Json = {};
        for (const [k, v] of Object.entries(r)) {
          if (k === 'uid' || k === 'target_uid' || k === 'replaces') n[k] = label('uid', v);
          else if (k === 'hlc') n[k] = '<hlc>';
          else if (k === 'via') n[k] = label('via', v);
          else if ((k === 'ts' || k === 'pinned_at') && v !== IMPORT_TS) n[k] = '<time>';
          else if (k === 'meta') {
            const m = { ...(v as Json) };
            for (const t of ['created', 'compactedAt']) if (t in m) m[t] = '<time>';
            n[k] = m;
          } else n[k] = v;
        }
        return n;
      });
  }
  return out;
}

describe('memory: the records a scripted session writes', () => {
  it('adds, edits, pins, forgets, import, sync both ways and compaction write the golden records', async () => {
    const root = realPath(tmpDir('aish-golden-'));
    const bare = join(root, 'remote.git');
    git(root, 'init', '-q', '--bare', bare);
    const box = (name: string) => {
      const home = join(root, name);
      mkdirSync(home, { recursive: true });
      const config = join(home, 'config.ts');
      writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(bare)}, name: "${name}", auto: "off" } } };\n`);
      const data = join(home, 'data');
      const memory = join(data, 'memory.jsonl');
      const aish = async (...args: string[]) => {
        const r = await runAish(['--config', config, '--data-dir', data, 'memory', ...args], { home, cwd: home, timeoutMs: 60_000 });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        return r.stdout;
      };
      const idOf = (content: string): string => {
        const found = MemoryStore.open(memory)
          .items()
          .find((i) => i.content === content);
        if (!found) throw new Error(`no active item says ${content}`);
        return String(found.id);
      };
      return { home, memory, aish, idOf };
    };
    const a = box('a');
    const b = box('b');

    await a.aish('add', 'fact', 'the build uses pnpm');
    await a.aish('add', 'pref', 'prefers tabs over spaces');
    await a.aish('add', 'fact', 'CI runs node 18');
    await a.aish('add', '--private', 'fact', 'the token lives in pass');
    await a.aish('add', 'fact', 'the build uses pnpm'); // a duplicate: nothing written
    await a.aish('edit', a.idOf('CI runs node 18'), 'CI runs node 20 (keys: ci, node)');
    await a.aish('pin', a.idOf('the build uses pnpm'));
    await a.aish('forget', a.idOf('prefers tabs over spaces'));
    // The store's own verbs, as the REPL's :memory reaches them.
    const store = MemoryStore.open(a.memory);
    await store.add('context', 'working on the parser', { source: 'session:s1' });
    await store.addUnique('context', 'Working on  the parser'); // the same, case and spaces aside
    await store.supersede(Number(a.idOf('working on the parser')), 'context', 'working on the lexer');
    await store.setPinned(Number(a.idOf('CI runs node 20')), true);
    await store.forgetMany([Number(a.idOf('the token lives in pass')), 999]);
    const exported = join(a.home, 'in.jsonl');
    writeFileSync(
      exported,
      [
        { id: 1, ts: IMPORT_TS, kind: 'fact', content: 'staging lives at staging.example.org', tags: ['env'] },
        { id: 2, ts: IMPORT_TS, kind: 'pref', content: 'answers in English' },
        { id: 3, ts: IMPORT_TS, kind: 'fact', content: 'the build uses pnpm' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    await a.aish('import', exported);
    await a.aish('sync');

    await b.aish('add', 'fact', 'the deploy key rotates monthly');
    await b.aish('sync');
    await b.aish('forget', b.idOf('answers in English'));
    await b.aish('edit', b.idOf('CI runs node 20'), 'CI runs node 22');
    // b is new to a: its unpin of a pin made on a waits in a's review (a keeps the pin).
    await b.aish('unpin', b.idOf('the build uses pnpm'));
    await b.aish('sync');
    await a.aish('sync');

    await a.aish('add', 'fact', 'releases are tagged by hand');
    await a.aish('forget', a.idOf('working on the lexer')); // not yet sent when compaction runs
    const beforeCompact = { a: readFileSync(a.memory, 'utf8'), b: readFileSync(b.memory, 'utf8') };
    await a.aish('compact');
    await a.aish('sync');
    await b.aish('sync');
    await b.aish('compact');

    const records = normalise({
      'a before compaction': beforeCompact.a,
      'b before compaction': beforeCompact.b,
      a: readFileSync(a.memory, 'utf8'),
      b: readFileSync(b.memory, 'utf8'),
    });
    await expect(JSON.stringify(records, null, 1) + '\n').toMatchFileSnapshot('../fixtures/memory-golden.json');
  });
});
