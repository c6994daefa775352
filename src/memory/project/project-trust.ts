/**
 * projects.jsonl, beside memory.jsonl: the checkouts the user established as a project. A project's
 * names (`git:…` from a remote URL, `id:…` from `.aish/project-id`) come from files anyone who
 * hands over a repository controls, so they only suggest an identity; its items apply at a
 * checkout once the user made that real path the project — by adding a project item there, or by
 * saying yes once (`aish memory trust-project`, or the question before the first prompt). One line
 * per answer — `{"ts","scope","root","how":"created"|"confirmed"|"declined"|"revoked"}`, the last
 * for a pair counts — written like the other side files (own lock, whole fsynced lines, 0600).
 */
import { dirname, join } from 'node:path';
import { realDir } from '../../util/paths';
import { jsonObjectLines, SideFile, type SideFileOptions } from '../side-file';

type How = 'created' | 'confirmed' | 'declined' | 'revoked';
const HOWS: readonly string[] = ['created', 'confirmed', 'declined', 'revoked'];

export interface ProjectPair {
  /** An identity scope: `git:…` or `id:…`. */
  scope: string;
  /** The real path of the checkout's root. */
  root: string;
}

const key = (p: ProjectPair) => `${p.scope}\u0000${p.root}`;

function parse(text: string): Map<string, How> {
  const out = new Map<string, How>();
  // A torn or hand-broken line establishes nothing.
  for (const d of jsonObjectLines(text)) {
    if (typeof d.scope !== 'string' || typeof d.root !== 'string' || typeof d.how !== 'string' || !HOWS.includes(d.how)) continue;
    out.set(key({ scope: d.scope, root: d.root }), d.how as How);
  }
  return out;
}

export class ConfirmedProjects {
  private readonly file: SideFile<Map<string, How>>;

  constructor(
    readonly path: string,
    opts: SideFileOptions = {},
  ) {
    this.file = new SideFile(path, parse, opts);
  }

  /** The user made `root` this project (an unreadable file establishes nothing). */
  has(p: ProjectPair): boolean {
    const a = this.answer(p);
    return a === 'created' || a === 'confirmed';
  }

  /** The user said no to this pair (and has not said yes since): not asked again. */
  declined(p: ProjectPair): boolean {
    return this.answer(p) === 'declined';
  }

  private answer(p: ProjectPair): How | undefined {
    try {
      return this.file.current().get(key(p));
    } catch {
      return undefined;
    }
  }

  /** Record an answer for each pair whose answer differs; the number written. */
  record(pairs: readonly ProjectPair[], how: How, now = new Date()): Promise<number> {
    return this.file.locked((known) => {
      const fresh = pairs.filter((p) => {
        const was = known.get(key(p));
        if (how === 'created') return was !== 'created' && was !== 'confirmed';
        return was !== how;
      });
      const records = fresh.map((p) => ({ ts: now.toISOString(), scope: p.scope, root: p.root, how }));
      return { records, result: records.length };
    });
  }
}

const open = new Map<string, ConfirmedProjects>();
let current: ConfirmedProjects | null = null;

/** The confirmed checkouts of the memory file at `memoryPath`: the ones scope matching asks about from now on in this process. */
export function useConfirmedProjects(memoryPath: string, opts: SideFileOptions = {}): ConfirmedProjects {
  const path = realDir(join(dirname(memoryPath), 'projects.jsonl'));
  let c = open.get(path);
  if (!c) open.set(path, (c = new ConfirmedProjects(path, opts)));
  current = c;
  return c;
}

/** The user answered no for this pair at the question (not asked again). */
export function isDeclined(scope: string, root: string): boolean {
  return current?.declined({ scope, root }) ?? false;
}

/** Whether the user established `root` as the project named `scope` (no memory file in use: nothing is). */
export function isEstablished(scope: string, root: string): boolean {
  return current?.has({ scope, root }) ?? false;
}
