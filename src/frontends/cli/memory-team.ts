/** `aish memory share ID`, and the team rows of `aish memory list`: team memory outside the REPL, as `:memory` does it. */
import type { Setup } from '../../config/setup';
import { shareById } from '../../commands/memory-share';
import { lockTimingFromEnv } from '../../memory/log/lock';
import { trustProjectAt } from '../../memory/project/project-confirm';
import { formatTeamLines } from '../../memory/team/team-format';
import { TeamMemory } from '../../memory/team/team-memory';
import { HINT } from './memory-add';
import { memoryOn, openStore } from './memory-store';
import { out, warn } from './output';

function teamOf(s: Setup): TeamMemory {
  return new TeamMemory(s.config, s.paths.memoryPath, { lock: lockTimingFromEnv(), notice: (t) => warn(`warning: ${t}`) });
}

export function memoryShare(s: Setup, rawId: string): void {
  const store = openStore(s);
  out(shareById(store, teamOf(s), rawId, process.cwd(), HINT));
}

/** `aish memory trust-project [--revoke]`: this checkout is (no longer) the project its files name. */
export async function memoryTrustProject(s: Setup, revoke: boolean): Promise<void> {
  memoryOn(s);
  out(await trustProjectAt(s.paths.memoryPath, process.cwd(), revoke));
}

/** The team items of the project aish runs in, after the store's own (nothing when there are none). */
export function listTeam(s: Setup): void {
  const team = formatTeamLines(teamOf(s), process.cwd(), new Date(), 'aish memory review (or :memory review)');
  for (const w of team.warnings) warn(`warning: ${w}`);
  for (const l of team.lines) out(l);
}
