/**
 * The team step of `:memory review` (and `aish memory review`): each teammate's item of this project
 * that is new, or whose text changed since the user accepted it, `accept? [y/n/s]`. An answer is
 * kept in team-review.jsonl (team-decisions.ts); nothing is written to memory.jsonl or to the team
 * files. With memory.team "trust" or "off" there is nothing to ask.
 */
import type { TeamMemory } from '../memory/team/team-memory';
import { oneLine } from '../util/text';
import { choiceOf, type ReviewIO } from './memory-review-io';

export interface TeamReviewResult {
  accepted: number;
  dropped: number;
  skipped: number;
  /** The closing line. */
  summary: string;
}

/** Null when no team item waits here (no line is printed then). */
export async function reviewTeam(team: TeamMemory, cwd: string, io: ReviewIO): Promise<TeamReviewResult | null> {
  if (team.mode !== 'review') return null;
  const view = team.view(cwd);
  for (const w of view.warnings) io.print(`warning: ${w}`);
  const waiting = view.entries.filter((e) => e.status === 'pending' || e.status === 'changed');
  if (waiting.length === 0) return null;
  const tally = { accepted: 0, dropped: 0, skipped: 0 };
  for (const [i, e] of waiting.entries()) {
    const it = e.item;
    io.print(`[team] ${i + 1}/${waiting.length} (${it.kind}) ${oneLine(it.content)}  — (team: ${it.author}), ${it.where}`);
    if (e.status === 'changed') io.print('  its text changed since you accepted it');
    const a = choiceOf(await io.ask('accept? [y/n/s] '), ['yes', 'no']);
    if (a === null) break;
    if (a === '') {
      tally.skipped++;
      io.print('skipped — asked again next review');
      continue;
    }
    const action = a === 'yes' ? 'accept' : 'drop';
    // Another aish may have answered meanwhile: its answer stands.
    if (!(await team.decide(it, action))) io.print('answered in another aish meanwhile — nothing written');
    else if (action === 'accept') {
      tally.accepted++;
      io.print('accepted — sent to the model in this project from now on');
    } else {
      tally.dropped++;
      io.print('dropped — not asked again');
    }
  }
  const left = team.pending(cwd).length;
  return {
    ...tally,
    summary: `[aish] team review: accepted ${tally.accepted}, dropped ${tally.dropped}, skipped ${tally.skipped}; ${left} still waiting`,
  };
}
