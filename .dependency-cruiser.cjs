/**
 * The layer rules of src/ (see docs/architecture.md, "Layers"), checked by `npm test`:
 *   config, util → broker → sessions → memory → context, tools → core → commands → input → frontends
 *   (checkpoints stands alone on config and util)
 * A folder imports only its own files and folders below it (those in BELOW, and theirs in turn); no
 * import cycles anywhere; Ink and React only inside frontends/. test/e2e/architecture.test.ts shows
 * each rule firing on a fixture.
 */

/** Each folder and the folders directly below it; what those may import is allowed too. */
const BELOW = {
  util: [],
  config: ['util'],
  broker: ['config', 'util'],
  // Turns carry tool calls in the API's shape.
  sessions: ['broker'],
  // Capture and summarize read a session log's turns.
  memory: ['sessions'],
  // How an item reads in [background]; the recall query's parts.
  context: ['memory'],
  // The memory tools; tool specs in the API's shape.
  tools: ['memory'],
  checkpoints: ['config', 'util'],
  core: ['context', 'tools', 'checkpoints'],
  commands: ['core'],
  input: ['commands'],
  frontends: ['input'],
};
const ALL = Object.keys(BELOW);

/** Every folder `name` may import: those below it, transitively. */
function reachable(name, seen = new Set()) {
  for (const f of BELOW[name]) {
    if (!seen.has(f)) {
      seen.add(f);
      reachable(f, seen);
    }
  }
  return seen;
}

const layerRule = (name) => {
  const allowed = reachable(name);
  const forbidden = ALL.filter((f) => f !== name && !allowed.has(f));
  return {
    name: `layer-${name}`,
    comment: `src/${name}/ may import only from: ${[...allowed].sort().join(', ') || 'nothing else in src'}`,
    severity: 'error',
    from: { path: `^src/${name}/` },
    to: { path: `^src/(${forbidden.join('|')})/` },
  };
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles between files (type-only imports included).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    // frontends/ is the top: it may import every other folder, so it needs no rule.
    ...ALL.filter((f) => f !== 'frontends').map(layerRule),
    {
      name: 'ui-only-in-frontends',
      comment: 'Ink and React belong to the front ends; everything that decides is plain TypeScript.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/frontends/' },
      to: { path: 'node_modules/(ink|react|ink-testing-library)/' },
    },
    // memory.jsonl has one writer, src/memory/log/ (docs/architecture.md, "The memory core").
    {
      name: 'memory-one-writer',
      comment:
        'Only src/memory/log/ writes memory.jsonl: its raw append and rewrite are imported nowhere else (everything else writes through log/write.ts or log/compact.ts). side-file.ts appends inbox.jsonl and team-review.jsonl the same way.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/memory/(log/|side-file\\.ts$)' },
      to: { path: '^src/memory/log/(append|rewrite)\\.ts$' },
    },
    {
      name: 'memory-log-is-the-base',
      comment:
        'src/memory/log/ knows nothing built on it (store, index, sync): of memory it imports only types.ts, scope-format.ts and origin.ts.',
      severity: 'error',
      from: { path: '^src/memory/log/' },
      to: { path: '^src/memory/', pathNot: '^src/memory/(log/|types\\.ts$|scope-format\\.ts$|origin\\.ts$)' },
    },
    {
      name: 'memory-store-no-sync',
      comment: 'The store knows nothing of sync: its compaction takes a before-rewrite hook (memory/ops.ts passes sync staging).',
      severity: 'error',
      from: { path: '^src/memory/store\\.ts$' },
      to: { path: '^src/memory/sync/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every import resolves.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
