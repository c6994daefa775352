/**
 * Norris mode (SPEC §6): the model works toward a goal on its own. The NORRIS block (with the goal)
 * replaces [background] in the system prompt; each step is one model call whose tool calls go
 * through the gate (non-destructive ones run unasked); it ends when the model answers without a
 * tool call (done), after norris.maxSteps (step budget), when the user stops it, or on an error.
 * Afterwards Norris is off and [background] returns.
 */
import type { Engine } from '../engine/engine';
import { runTurn } from '../engine/turn';
import { AishError } from '../util/errors';

export type NorrisEnd = 'done' | 'budget' | 'stopped' | 'error';

export interface NorrisResult {
  end: NorrisEnd;
  steps: number;
  maxSteps: number;
  refused: number;
  denied: number;
  /** The model's closing answer (done), or why it ended. */
  summary: string;
}

export async function runNorris(engine: Engine, goal: string, opts: { yes: boolean }): Promise<NorrisResult> {
  const text = goal.trim();
  if (!text) throw new AishError('Norris needs a goal: :norris GOAL');
  if (engine.busy) throw new AishError('busy — wait for the current answer, or Ctrl-C it');
  const maxSteps = engine.config.norris.maxSteps;
  await engine.memoryReadyPromise();
  engine.conversation.norris = { goal: text, maxSteps };
  const start = `Goal: ${text}\nWork on it now, step by step.`;
  engine.conversation.add({ role: 'user', content: start });
  engine.appendLog({ role: 'user', content: start, meta: 'norris' });
  engine.host.print({ kind: 'info', text: `NORRIS: ${text} (at most ${maxSteps} steps; Ctrl-C stops)` });
  try {
    const r = await runTurn(engine, {
      mode: 'norris',
      yes: opts.yes,
      maxRounds: maxSteps,
      onStep: (step) => {
        engine.norrisStep = { step, maxSteps };
        engine.host.statusChanged?.();
        engine.host.print({ kind: 'info', text: `NORRIS step ${step}/${maxSteps}` });
      },
    });
    const end: NorrisEnd = r.end === 'answered' ? 'done' : r.end === 'rounds' ? 'budget' : r.end === 'interrupted' ? 'stopped' : 'error';
    const summary =
      end === 'done'
        ? r.answer
        : end === 'budget'
          ? `the step budget (${maxSteps}) ran out before the model finished`
          : end === 'stopped'
            ? 'stopped by the user'
            : (r.error?.message ?? 'the model call failed');
    return { end, steps: r.steps, maxSteps, refused: r.refused, denied: r.denied, summary };
  } finally {
    engine.conversation.norris = null;
    engine.norrisStep = null;
    engine.host.statusChanged?.();
  }
}

/** The closing line: why it ended, steps used, refusals. */
export function norrisReport(r: NorrisResult): string {
  const why = { done: 'done', budget: 'step budget used up', stopped: 'stopped', error: 'error' }[r.end];
  const extra = [r.refused ? `${r.refused} refused` : '', r.denied ? `${r.denied} declined` : ''].filter(Boolean).join(', ');
  return `NORRIS ended: ${why} after ${r.steps}/${r.maxSteps} steps${extra ? ` (${extra})` : ''}${r.end === 'done' ? '' : ` — ${r.summary}`}`;
}
