/**
 * The layer rules of src/ (see the README's "Architecture"), checked by `npm test`:
 *   config, util → memory, sessions, broker, context, tools, checkpoints → core → commands → input → frontends
 * Each layer imports only from layers below it (or its own); no import cycles anywhere; Ink and
 * React only inside frontends/.
 */
const LOWER = {
  util: [],
  config: ['util'],
  // The middle layer may use one another (no cycles); never anything above.
  memory: ['config', 'util', 'memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints'],
  core: ['config', 'util', 'memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints'],
  commands: ['config', 'util', 'memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints', 'core'],
  input: ['config', 'util', 'memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints', 'core', 'commands'],
};
const ALL = ['config', 'util', 'memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints', 'core', 'commands', 'input', 'frontends'];
const above = (allowed, self) => ALL.filter((f) => f !== self && !allowed.includes(f));
const folders = (list) => `^src/(${list.join('|')})/`;

const layerRule = (name, from, allowed) => ({
  name: `layer-${name}`,
  comment: `src/${name}/ may import only from: ${allowed.join(', ') || 'nothing else in src'}`,
  severity: 'error',
  from: { path: `^src/(${from})/` },
  to: { path: folders(above(allowed, name)) },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles between files (type-only imports included).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    layerRule('util', 'util', LOWER.util),
    layerRule('config', 'config', LOWER.config),
    ...['memory', 'sessions', 'broker', 'context', 'tools', 'checkpoints'].map((f) => layerRule(f, f, LOWER.memory)),
    layerRule('core', 'core', LOWER.core),
    layerRule('commands', 'commands', LOWER.commands),
    layerRule('input', 'input', LOWER.input),
    {
      name: 'ui-only-in-frontends',
      comment: 'Ink and React belong to the front ends; everything that decides is plain TypeScript.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/frontends/' },
      to: { path: 'node_modules/(ink|react|ink-testing-library)/' },
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
