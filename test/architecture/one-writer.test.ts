/**
 * memory.jsonl has one writer, src/memory/log/ (docs/architecture.md, "The memory core"). Every
 * source file that could know where memory.jsonl is — those under src/memory/, those that import
 * from it, and any that name `memoryPath`, `memory.jsonl` or a store's or memory's `.path` — is
 * searched for calls that write a file (write, append, create, truncate, rename over, atomic
 * rewrite, open with a write flag, log's own raw append and rewrite). Outside log/ each file that
 * has any must be listed below with what it writes, which is never memory.jsonl; a new one fails
 * until it is reviewed. .dependency-cruiser.cjs adds that nothing outside log/ imports log's raw
 * append and rewrite (memory-one-writer) and that store.ts imports nothing from sync.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Files outside src/memory/log/ that write files, and what they write. */
const OTHER_WRITERS: Record<string, string> = {
  'src/frontends/cli/capture-child.ts': "the background capture's capture.log",
  'src/frontends/cli/memory-porting.ts': "`aish memory export --format agents-md`: the project's AGENTS.md",
  'src/frontends/cli/memory-transfer.ts': '`aish memory export FILE`: the export file',
  'src/memory/embed/vector-file.ts': 'the embeddings cache (memory.jsonl.vectors), rebuilt from memory.jsonl',
  'src/memory/index/sidecar.ts': 'the index sidecar (memory.jsonl.index), rebuilt from memory.jsonl',
  'src/memory/receipts/receipts.ts': 'receipts.jsonl, trimmed to its newest receipts in one rewrite',
  'src/memory/review/recall-use.ts': 'when items were last sent in [recall] (memory.jsonl.recalled), folded in one rewrite',
  'src/memory/side-file.ts': 'inbox.jsonl and team-review.jsonl, appended as memory.jsonl is (log/append.ts)',
  'src/memory/sync/guard.ts': "sync's count of forgets per writer (guard.json)",
  'src/memory/sync/held.ts': "sync's held arrivals (held.jsonl)",
  'src/memory/sync/ledger-snapshot.ts': "sync's ledger snapshot",
  'src/memory/sync/ledger.ts': "sync's ledger",
  'src/memory/sync/outbox.ts': "sync's outbox",
  'src/memory/sync/own-file.ts': "this machine's writer file in the sync repository",
  'src/memory/sync/repo.ts': "the sync clone's writer files (from git's blobs, never a checkout) and its memo",
  'src/memory/sync/state.ts': "sync's state file",
  'src/memory/team/team-share.ts': "the project's .aish/memory/<name>.jsonl",
};

/** Code that imports memory's modules or names memory's path. */
const KNOWS_MEMORY = /memoryPath|memory\.jsonl|\b(memory|store)\.path\b|from '[^']*\/memory\//;

const WRITE =
  /\b(writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|truncateSync|ftruncateSync|truncate|writeFileAtomicSync|renameSync|rename|copyFileSync|cpSync|appendWholeLines|appendRecords|appendAtomically|rewriteFile)\s*\(|\bopenSync\s*\([^;]*?(O_WRONLY|O_RDWR|O_APPEND|O_CREAT|O_TRUNC|'[wa]x?\+?'|'r\+')/;

function sources(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx)$/.test(n)) out.push(p);
  }
  return out;
}

/** Code only: comments out, so a comment naming a call does not count. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** The files in scope that write, relative to the repository. */
function writers(files: ReadonlyArray<{ rel: string; text: string }>): string[] {
  return files
    .filter((f) => f.rel.startsWith('src/memory/') || KNOWS_MEMORY.test(code(f.text)))
    .filter((f) => WRITE.test(code(f.text)))
    .map((f) => f.rel)
    .sort();
}

describe('memory.jsonl has one writer', () => {
  const files = sources(join(root, 'src')).map((p) => ({ rel: p.slice(root.length), text: readFileSync(p, 'utf8') }));

  it('outside src/memory/log/, only the reviewed files write files, and none of them memory.jsonl', () => {
    const outside = writers(files).filter((rel) => !rel.startsWith('src/memory/log/'));
    expect(outside).toEqual(Object.keys(OTHER_WRITERS).sort());
  });

  it('src/memory/log/ holds the writers of memory.jsonl', () => {
    expect(writers(files).filter((rel) => rel.startsWith('src/memory/log/'))).toEqual(
      expect.arrayContaining(['src/memory/log/append.ts', 'src/memory/log/compact.ts', 'src/memory/log/rewrite.ts']),
    );
  });

  it('the search finds each kind of write it looks for (a file in memory/ that appends, renames, opens to write)', () => {
    const probe = (text: string) => writers([{ rel: 'src/memory/probe.ts', text }]);
    for (const call of [
      "appendFileSync(path, 'x\\n');",
      "fs.writeFileSync(p, '');",
      'writeFileAtomicSync(p, data, { mode: 0o600 });',
      'renameSync(tmp, file);',
      'const fd = openSync(file, constants.O_RDWR | constants.O_APPEND);',
      "const fd = openSync(file, 'a');",
      'appendWholeLines(fd, text, header);',
      'appendRecords(file, lines, fileHeader(now()), notice);',
      'createWriteStream(file, { flags: "a" });',
    ])
      expect(probe(call), call).toEqual(['src/memory/probe.ts']);
    expect(probe("const fd = openSync(file, 'r'); // appendFileSync(file) in a comment")).toEqual([]);
    // Outside memory/, a file is in scope once it names memory's path.
    expect(writers([{ rel: 'src/sessions/x.ts', text: "writeFileSync(p, '');" }])).toEqual([]);
    for (const text of [
      "writeFileSync(s.paths.memoryPath, '');",
      "writeFileSync(memory.path, '');",
      "import { x } from '../memory/store';\nwriteFileSync(p, '');",
    ])
      expect(writers([{ rel: 'src/commands/x.ts', text }]), text).toEqual(['src/commands/x.ts']);
  });
});
