/**
 * Norris mode: the model works toward a goal on its own. The NORRIS block (with the goal) replaces
 * [background] in the system prompt; each step is one model call whose tool calls go through the
 * gate (non-destructive ones run unasked); it ends when the model answers without a tool call
 * (done), after norris.maxSteps (step budget), when the user stops it, or on an error. Afterwards
 * Norris is off and [background] returns. The run's state lives here and nowhere else.
 */
import { AishError } from '../util/errors';
import { runTurn, type TurnDeps, type TurnOutcome } from './turn';

type NorrisEnd = 'done' | 'budget' | 'stopped' | 'error';

export interface NorrisResult extends Pick<TurnOutcome, 'steps' | 'refused' | 'denied'> {
  end: NorrisEnd;
  maxSteps: number;
  /** The model's closing answer (done), or why it ended. */
  summary: string;
}

export interface NorrisState {
  goal: string;
  maxSteps: number;
  /** The step running now; 0 before the first. */
  step: number;
}

export interface NorrisDeps {
  /** What each step (one turn's model call and its tool calls) uses. */
  readonly turn: Readonly<TurnDeps>;
  /** `norris.maxSteps` (read per run: a config reload may change it). */
  maxSteps(): number;
  /** Something else runs (an answer, a shell command). */
  busy(): boolean;
  memoryReady(): Promise<void>;
  /** The state changed: the status line follows it. */
  notify(): void;
  /** The goal counts as a user turn; the end of a run is a boundary where capture may run. */
  readonly keeper: { userTurn(): void; norrisEnded(): void };
}

export class Norris {
  private current: NorrisState | null = null;

  constructor(private readonly deps: Readonly<NorrisDeps>) {}

  /** The running goal, or null. */
  get state(): Readonly<NorrisState> | null {
    return this.current;
  }

  async run(goal: string, opts: { yes: boolean }): Promise<NorrisResult> {
    const { deps } = this;
    const { turn } = deps;
    const text = goal.trim();
    if (!text) throw new AishError('Norris needs a goal: :norris GOAL');
    if (deps.busy()) throw new AishError('busy — wait for the current answer, or Ctrl-C it');
    const maxSteps = deps.maxSteps();
    await deps.memoryReady();
    this.current = { goal: text, maxSteps, step: 0 };
    const start = `Goal: ${text}\nWork on it now, step by step.`;
    turn.conversation.add({ role: 'user', content: start });
    turn.record({ role: 'user', content: start, meta: 'norris', typed: text });
    deps.keeper.userTurn();
    turn.host.print({
      kind: 'info',
      text: `NORRIS: ${text} (at most ${maxSteps} steps; ${await turn.guards.describe(opts.yes)}; Ctrl-C stops)`,
    });
    try {
      const r = await runTurn(turn, {
        mode: 'norris',
        yes: opts.yes,
        maxRounds: maxSteps,
        onStep: (step) => {
          this.current = { goal: text, maxSteps, step };
          deps.notify();
          turn.host.print({ kind: 'info', text: `NORRIS step ${step}/${maxSteps}` });
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
      this.current = null;
      deps.notify();
      deps.keeper.norrisEnded();
    }
  }
}

/** The closing line: why it ended, steps used, refusals. */
export function norrisReport(r: NorrisResult): string {
  const why = { done: 'done', budget: 'step budget used up', stopped: 'stopped', error: 'error' }[r.end];
  const extra = [r.refused ? `${r.refused} refused` : '', r.denied ? `${r.denied} declined` : ''].filter(Boolean).join(', ');
  return `NORRIS ended: ${why} after ${r.steps}/${r.maxSteps} steps${extra ? ` (${extra})` : ''}${r.end === 'done' ? '' : ` — ${r.summary}`}`;
}
