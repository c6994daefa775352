/**
 * Meeting a known project at a new checkout: how many of the user's items name it, the question
 * (`this checkout is github.com/acme/shop — use its 12 memories here? [y/N]`), the line said
 * instead where nobody can answer, and the answers (project-trust.ts keeps them).
 */
import { expandHome, realPath, tildify } from '../../util/paths';
import type { MemoryIndex } from '../index/memory-index';
import { namesAround, scopeMatcher } from './project';
import { isPathScope, TRUST_VERB } from '../scope-format';
import { isDeclined, isEstablished, useConfirmedProjects, type ProjectPair } from './project-trust';

export interface ProjectQuestion {
  /** The names of this checkout (and of the projects around it) not yet established here. */
  pairs: ProjectPair[];
  /** Active items that would apply here once confirmed. */
  count: number;
  /** The name the question shows: `github.com/acme/shop`, or `shop (.aish/project-id)`. */
  name: string;
  /** The user said no to every one of them when asked before (only the line is said, never the question again). */
  declined: boolean;
  /**
   * Those whose checkout holds the user's own items scoped to it by path (what every project item
   * was before identities): the user created items there, which establishes it without asking.
   */
  createdThere: ProjectPair[];
}

/** Active items per scope, as the index has them now: its header's counts, less the tail's forgets, plus the tail's items. */
export function scopeCounts(ix: MemoryIndex): Map<string, number> {
  const out = new Map<string, number>();
  const h = ix.header;
  if (!h) return out;
  h.scopes.forEach((s, i) => out.set(s, h.scopeCounts[i] ?? 0));
  for (const slot of ix.tail?.dead ?? []) {
    const s = h.scopes[ix.lineAt(slot)[1] - 1];
    if (s !== undefined) out.set(s, (out.get(s) ?? 1) - 1);
  }
  for (const it of ix.tail?.items ?? []) if (it.scope !== undefined) out.set(it.scope, (out.get(it.scope) ?? 0) + 1);
  return out;
}

const shown = (scope: string) => (scope.startsWith('git:') ? scope.slice(4) : `${scope.slice(3)} (.aish/project-id)`);

/** What to ask in `cwd`: null when no item waits on a confirmation here, or the user already said no. */
export function projectQuestion(cwd: string, counts: ReadonlyMap<string, number>): ProjectQuestion | null {
  const now = scopeMatcher(cwd);
  const then = scopeMatcher(cwd, true);
  let count = 0;
  for (const [scope, n] of counts) if (n > 0 && then(scope) && !now(scope)) count += n;
  if (count === 0) return null;
  const pairs = namesAround(cwd).filter((p) => !isEstablished(p.scope, p.root));
  if (pairs.length === 0) return null;
  const pathRoots = new Set([...counts].filter(([s, n]) => n > 0 && isPathScope(s)).map(([s]) => realPath(expandHome(s))));
  return {
    pairs,
    count,
    name: shown(pairs[0]!.scope),
    declined: pairs.every((p) => isDeclined(p.scope, p.root)),
    createdThere: pairs.filter((p) => pathRoots.has(p.root)),
  };
}

export function questionText(q: ProjectQuestion): string {
  return `this checkout is ${q.name} — use its ${q.count} ${q.count === 1 ? 'memory' : 'memories'} here?`;
}

/** Where nobody can answer: one line saying how to confirm. */
export function unconfirmedLine(q: ProjectQuestion): string {
  const n = `${q.count} project ${q.count === 1 ? 'memory' : 'memories'}`;
  return `memory: this checkout names ${q.name}, not confirmed here, so its ${n} ${q.count === 1 ? 'is' : 'are'} not used — confirm with: aish memory ${TRUST_VERB}`;
}

/** The user declined (asked once: not asked again at this checkout). */
export async function declineProject(memoryPath: string, q: ProjectQuestion): Promise<void> {
  await useConfirmedProjects(memoryPath).record(q.pairs, 'declined');
}

/** Checkouts where the user's own path-scoped items were written: established as created there. */
export async function adoptCreatedThere(memoryPath: string, q: ProjectQuestion): Promise<void> {
  if (q.createdThere.length) await useConfirmedProjects(memoryPath).record(q.createdThere, 'created');
}

/** Project items were added at `cwd`: the user works here as that project. */
export async function projectCreatedAt(memoryPath: string, cwd: string): Promise<void> {
  const pairs = namesAround(cwd);
  if (pairs.length) await useConfirmedProjects(memoryPath).record(pairs, 'created');
}

/** `trust-project` (and a yes to the question): this checkout is the project its files name; `revoke`: no longer. One line. */
export async function trustProjectAt(memoryPath: string, cwd: string, revoke = false): Promise<string> {
  const pairs = namesAround(cwd);
  if (pairs.length === 0)
    return `${tildify(cwd)} is not in a project with a name (no git remote, no .aish/project-id): project items here apply by path`;
  const names = [...new Set(pairs.map((p) => p.scope))].join(', ');
  const where = tildify(pairs[0]!.root);
  const confirmed = useConfirmedProjects(memoryPath);
  if (revoke) {
    const n = await confirmed.record(
      pairs.filter((p) => confirmed.has(p)),
      'revoked',
    );
    return n
      ? `memory: ${where} is no longer taken as ${names}; its project items no longer apply here`
      : `${where} was not confirmed as ${names}`;
  }
  const n = await confirmed.record(
    pairs.filter((p) => !confirmed.has(p)),
    'confirmed',
  );
  return n ? `memory: ${where} is ${names} — its project items apply here` : `${where} is already confirmed as ${names}`;
}
