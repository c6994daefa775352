/**
 * Team memory as a session sees it: the team files of the project aish is in (read only when that
 * project has a `.aish/memory/` directory, and not at all with `memory.team: "off"`), each item
 * with where the user stands on it, and which of them may reach the model — with "review" only
 * those accepted once in `:memory review`, with "trust" all of them. Team items apply only in the
 * project whose tree holds them, whatever scope their lines name.
 */
import { lstatSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { AishConfig, TeamMode } from '../../config/types';
import type { LockTiming } from '../log/lock';
import { projectIdentity } from '../project/project-identity';
import { recordArrival } from '../receipts/receipts';
import type { MemoryItem } from '../types';
import { authorName } from './team-author';
import { TeamDecisions, type TeamAction, type TeamStatus } from './team-decisions';
import { readTeamDir, teamDir, type TeamItem, type TeamRead } from './team-file';
import { shareItem, type ShareResult } from './team-share';

export interface TeamEntry {
  item: TeamItem;
  /** 'trusted' with memory.team "trust"; 'yours' in the file this user shares into (already in their own memory). */
  status: TeamStatus | 'trusted' | 'yours';
}

export interface TeamView {
  /** The project's root, or null outside a project (or with memory.team "off"). */
  root: string | null;
  entries: TeamEntry[];
  /** Lines the team files could not use, for listings and review. */
  warnings: string[];
}

const EMPTY: TeamView = { root: null, entries: [], warnings: [] };

export class TeamMemory {
  private decisionsValue: TeamDecisions | null = null;
  private cache: { root: string; stamp: string; read: TeamRead } | null = null;
  private names = new Map<string, string>();
  private viewed: { read: TeamRead; answers: string; project: string; view: TeamView } | null = null;
  // The project each listed item was read in: an answer is bound to it (team-decisions.ts).
  private readonly projectOf = new WeakMap<TeamItem, string>();

  readonly mode: TeamMode;

  constructor(
    private readonly config: AishConfig,
    private readonly memoryPath: string,
    private readonly opts: { lock?: Partial<LockTiming>; notice?: (text: string) => void } = {},
  ) {
    this.mode = config.memory ? config.memory.team : 'off';
  }

  /** Append `item` to this user's team file in the project of `cwd` (team-share.ts). */
  share(item: MemoryItem, cwd: string): ShareResult {
    return shareItem(item, cwd, authorName(this.config, cwd));
  }

  decisions(): TeamDecisions {
    this.decisionsValue ??= TeamDecisions.open(this.memoryPath, this.opts);
    return this.decisionsValue;
  }

  /** The team items of the project `cwd` is in, each with its status. */
  view(cwd: string): TeamView {
    if (this.mode === 'off') return EMPTY;
    const p = projectIdentity(cwd);
    if (!p.found) return EMPTY;
    const read = this.read(p.root);
    if (!read) return { ...EMPTY, root: p.root };
    const me = this.me(p.root);
    const answers = this.answersVersion();
    const project = p.scopes[0]!;
    // Asked on every status draw: the statuses are worked out again only when a file changed.
    if (this.viewed?.read !== read || this.viewed.answers !== answers || this.viewed.project !== project) {
      for (const item of read.items) this.projectOf.set(item, project);
      const entries = read.items.map((item): TeamEntry => ({ item, status: item.author === me ? 'yours' : this.statusOf(item, project) }));
      this.viewed = { read, answers, project, view: { root: p.root, entries, warnings: read.warnings } };
    }
    return this.viewed.view;
  }

  /** Items that may reach the model here. */
  accepted(cwd: string): TeamItem[] {
    return this.view(cwd)
      .entries.filter((e) => e.status === 'accepted' || e.status === 'trusted')
      .map((e) => e.item);
  }

  /** Items waiting for the user's answer here (new, or changed since accepted). */
  pending(cwd: string): TeamEntry[] {
    return this.view(cwd).entries.filter((e) => e.status === 'pending' || e.status === 'changed');
  }

  /** The name this user shares under in `root` (read once per project: it is asked on every status draw). */
  private me(root: string): string {
    let name = this.names.get(root);
    if (name === undefined) this.names.set(root, (name = authorName(this.config, root)));
    return name;
  }

  /** Answer for `item` as listed by view() here (bound to the project it was read in). */
  async decide(item: TeamItem, action: TeamAction): Promise<boolean> {
    const project = this.projectOf.get(item);
    if (project === undefined) return false; // not an item this session listed: nothing to answer for
    const done = await this.decisions().decide({ ...item, project }, action);
    // An acceptance is an arrival: a receipt, so `memory undo` can take it back (a drop).
    if (done && action === 'accept') await recordArrival(this.memoryPath, `team:${item.author}`, { added: [item] }, () => false, this.opts);
    return done;
  }

  /** team-review.jsonl's stamp, read again when it changed ('trust' never reads it). */
  private answersVersion(): string {
    if (this.mode === 'trust') return '';
    try {
      return this.decisions().version();
    } catch {
      return 'unreadable';
    }
  }

  private statusOf(item: TeamItem, project: string): TeamEntry['status'] {
    if (this.mode === 'trust') return 'trusted';
    try {
      return this.decisions().status({ ...item, project }, true);
    } catch {
      return 'pending'; // an unreadable record of answers accepts nothing
    }
  }

  /** The directory read again only when it or one of its files changed (a stat each). */
  private read(root: string): TeamRead | null {
    const dir = teamDir(root);
    const stamp = dirStamp(dir);
    if (stamp === null) return null;
    if (this.cache?.root !== root || this.cache.stamp !== stamp) this.cache = { root, stamp, read: readTeamDir(root) };
    return this.cache.read;
  }
}

function dirStamp(dir: string): string | null {
  let parts: string[];
  try {
    const st = statSync(dir);
    if (!st.isDirectory()) return null;
    parts = [`${st.mtimeMs}:${st.ino}`];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.jsonl')) continue;
      try {
        // lstat: a link swapped in (or its target changing) is a change the reader judges.
        const f = lstatSync(join(dir, name));
        parts.push(`${name}:${f.size}:${f.mtimeMs}:${f.ino}`);
      } catch {
        parts.push(`${name}:gone`);
      }
    }
  } catch {
    return null;
  }
  return parts.join('|');
}
