/**
 * Plain `aish` on a terminal loads the entry and the REPL's chunk with everything they import
 * statically before the first prompt can be served (a bundle of its own: `aish ARGS` is another). Code only some later action needs stays out
 * of that closure (a lazy `import()`, its own chunk): this bundles the source as the build does
 * and walks the static imports from both.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = 'src/frontends/cli/main.ts';
const REPL = 'src/frontends/repl/repl.tsx';
const ARGS = 'src/frontends/cli/main-args.ts'; // `aish ARGS`

/** The bundle of `entry` as scripts/build.mjs makes it: every input and what it imports. */
async function bundleInputs(entry: string) {
  const r = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    outdir: join(root, 'node_modules', '.cache', 'lazy-start-test'),
    write: false,
    metafile: true,
    external: ['jiti', 'web-tree-sitter'],
    alias: { 'react-devtools-core': join(root, 'scripts', 'empty-module.mjs') },
    logLevel: 'silent',
  });
  return r.metafile.inputs;
}

/** Every input reached from `starts` through static imports only. */
async function staticClosure(starts: string[], entry = ENTRY): Promise<Set<string>> {
  const inputs = await bundleInputs(entry);
  const seen = new Set<string>(starts);
  const queue = [...starts];
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    for (const i of inputs[f]?.imports ?? []) {
      if (i.kind === 'dynamic-import' || i.external || seen.has(i.path)) continue;
      seen.add(i.path);
      queue.push(i.path);
    }
  }
  return seen;
}

describe('what plain aish loads before the first prompt', () => {
  it('leaves out what only a later action needs', async () => {
    const closure = await staticClosure([ENTRY, REPL]);
    // Sanity: the walk reaches what a prompt does need.
    expect(closure).toContain('src/core/session-parts.ts');
    expect(closure).toContain('src/memory/session.ts');
    const lazy = [
      'src/tools/safety/', // the first run_command call, or :do
      'src/tools/sandbox', // the first step that runs on its own
      'src/checkpoints/checkpoints.ts', // the first snapshot, :checkpoints or :restore
      'src/core/capture.ts', // the first capture
      'src/core/suggest.ts', // :do
      'src/sessions/search.ts', // :sessions search
      'src/sessions/export.ts', // :export
      'src/tools/mcp/', // configured MCP servers, after the first frame
      'src/frontends/cli/program.ts', // any argument
      'node_modules/openai/', // Engine.start(), after the first frame
      'node_modules/@modelcontextprotocol/',
      'node_modules/proper-lockfile/', // the first memory write
      'node_modules/write-file-atomic/', // the first whole-file rewrite
      'node_modules/marked/', // the first answer's text
      'node_modules/commander/',
    ];
    const loaded = [...closure].filter((f) => lazy.some((l) => f.startsWith(l)));
    expect(loaded).toEqual([]);
  }, 60_000);

  it('is a bundle without the command line: no lazy import of a command cuts its start-up code into more files', async () => {
    // Each lazy import() is a split point: the REPL's code that a command also loads would be cut
    // into a file per set of commands that load it (85 files at start instead of ~60). `aish ARGS`
    // is its own bundle (main-args.ts); plain aish (main.ts) reaches none of it, lazily or not.
    const plain = Object.keys(await bundleInputs(ENTRY));
    expect(plain).toContain('src/frontends/repl/repl.tsx');
    expect(plain).toContain('src/frontends/plain.ts');
    const argsOnly = [
      'src/frontends/cli/program.ts',
      'src/frontends/cli/start-session.ts',
      'src/frontends/cli/memory-', // the command line's memory verbs
      'src/frontends/oneshot.ts', // -p
      'src/frontends/norris-cli.ts', // --norris
      'src/frontends/suggest-cli.ts', // -e
      'node_modules/commander/',
    ];
    expect(plain.filter((f) => argsOnly.some((a) => f.startsWith(a)))).toEqual([]);
    const args = Object.keys(await bundleInputs(ARGS));
    expect(args).toContain('src/frontends/cli/program.ts');
    expect(args).toContain('src/frontends/repl/repl.tsx'); // aish -c, --resume, --data-dir …
  }, 60_000);

  it('leaves the memory core out of every other command, and the width tables out of a piped memory verb', async () => {
    // `aish ARGS` loads program.ts and what it imports statically before the chosen command runs:
    // the memory verbs' table (and the secret rules under it) and the memory core load only for
    // `aish memory …` (frontends/cli/memory-table.ts).
    const program = await staticClosure([ARGS], ARGS);
    expect(program).toContain('src/config/setup.ts');
    expect([...program].filter((f) => /^src\/(memory|util\/secrets)\/|^src\/commands\/memory/.test(f))).toEqual([]);
    const verb = await staticClosure(['src/frontends/cli/memory-run.ts'], ARGS);
    expect(verb).toContain('src/memory/service.ts');
    // String widths matter only on a terminal (rows cut to its width).
    expect([...verb].filter((f) => f === 'src/util/width.ts' || f.startsWith('node_modules/string-width/'))).toEqual([]);
  }, 60_000);
});
