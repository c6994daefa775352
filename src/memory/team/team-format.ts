/** The team items of this project as listings show them: one row each, labelled `(team: alice)`, with where the user stands. */
import { sanitizeForBlock } from '../../util/text';
import { shownField } from '../format';
import { formatAge, plural } from '../../util/time';
import type { TeamEntry, TeamMemory } from './team-memory';

const STATUS: Record<TeamEntry['status'], string> = {
  accepted: '',
  trusted: '',
  pending: '  [waiting for review]',
  changed: '  [changed since accepted: waiting for review]',
  dropped: '  [dropped]',
  yours: '  [shared by you]',
};

/**
 * Rows for the team items found here (none when there are none), then the line that explains them;
 * `warnings`: the team files' lines that could not be used.
 */
export function formatTeamLines(team: TeamMemory, cwd: string, now: Date, reviewHint: string): { lines: string[]; warnings: string[] } {
  const view = team.view(cwd);
  const lines: string[] = [];
  if (view.entries.length === 0) return { lines, warnings: view.warnings };
  const ages = view.entries.map((e) => formatAge(e.item.ts, now));
  const ageW = ages.reduce((w, a) => Math.max(w, a.length), 3);
  lines.push(`  ${'TEAM'.padEnd(4)}  ${'AGE'.padEnd(ageW)}  KIND     CONTENT`);
  view.entries.forEach((e, i) => {
    const tags = e.item.tags?.length ? `  [${shownField(e.item.tags.join(', '))}]` : '';
    const text = `${sanitizeForBlock(e.item.content)}${tags}  (team: ${shownField(e.item.author)})${STATUS[e.status]}`;
    lines.push(`  ${'team'.padEnd(4)}  ${ages[i]!.padEnd(ageW)}  ${e.item.kind.padEnd(7)}  ${text}`);
  });
  const waiting = view.entries.filter((e) => e.status === 'pending' || e.status === 'changed').length;
  const why =
    team.mode === 'trust'
      ? 'sent to the model like project items (memory.team: "trust")'
      : `accepted ones are sent like project items${waiting ? `; ${waiting} waiting — ${reviewHint}` : ''}`;
  lines.push(`${plural(view.entries.length, 'team item')} in .aish/memory/ of this project; ${why}`);
  return { lines, warnings: view.warnings };
}
