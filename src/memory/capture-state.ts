/** The working state's empty value and emptiness test. */
import type { WorkingState } from '../sessions/digest';

export function blankState(): WorkingState {
  return { goal: '', current: '', decisions: [], openQuestions: [], nextSteps: [], filesTouched: [] };
}

export function hasState(s: WorkingState): boolean {
  return Boolean(s.goal || s.current || s.decisions.length || s.openQuestions.length || s.nextSteps.length || s.filesTouched.length);
}
