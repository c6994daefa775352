/**
 * Where a memory record came from: its `from` field (docs/memory-file.md), one of
 *   here                     typed or captured on this machine (also: no field)
 *   machine:<name>           another of the user's machines (sync; a received record's `via` says the same)
 *   team:<author>            a teammate's team file
 *   import:<tool>:<file>     another tool's file or an export (`aish memory import`)
 *   agent:<name>             an agent, by its MCP client name
 * The model and the listings get a short label for every origin but `here`.
 */

export type Origin = 'here' | `machine:${string}` | `team:${string}` | `import:${string}:${string}` | `agent:${string}`;

const ORIGIN = /^(?:here|(?:machine|team|agent):[^\n]{1,200}|import:[a-z][a-z0-9-]{0,19}:[^\n]{1,300})$/;

/** `v` as an origin, or undefined when it is not one. */
export function parseOrigin(v: unknown): Origin | undefined {
  return typeof v === 'string' && ORIGIN.test(v) ? (v as Origin) : undefined;
}

/**
 * A record's origin: its own `from`, else `machine:` the writer sync received it from (`via`, or
 * `another machine` when that writer gave no name), else here. A received record's `from` that names
 * a machine is only its writer's word (it could name this one): the writer it came from is what is known.
 */
export function originOf(it: { from?: unknown; via?: unknown }): Origin {
  const own = parseOrigin(it.from);
  if (own && own !== 'here' && !(typeof it.via === 'string' && own.startsWith('machine:'))) return own;
  if (typeof it.via === 'string') return `machine:${it.via.trim() || 'another machine'}`;
  return own ?? 'here';
}

/** An import's origin: the tool (`aish` for an export file) and the file's name. */
export function importOrigin(tool: string, file: string): Origin {
  return `import:${tool}:${file.replace(/\n/g, ' ').slice(0, 300) || '?'}`;
}

/** `from laptop`, `team: bob`, `imported: CLAUDE.md`, `agent: claude-code`; '' for here. */
export function originLabel(o: Origin): string {
  const at = o.indexOf(':');
  if (at < 0) return '';
  const what = o.slice(0, at);
  const rest = o.slice(at + 1);
  if (what === 'machine') return `from ${rest}`;
  if (what === 'import') {
    const file = rest.slice(rest.indexOf(':') + 1);
    return `imported: ${file.slice(file.lastIndexOf('/') + 1) || file}`;
  }
  return `${what}: ${rest}`;
}
