/**
 * The after-the-fact check of a step nobody approved, as the user and the model see it: the step
 * ran; what it must not do unasked (change, delete or re-mode what existed, create a file that
 * configures programs) was put back at once (checkpoints/step-watch.ts). A person is asked whether
 * to keep it after all; with nobody to ask, or under --yes (which approves the steps shown as
 * destructive, not what a harmless-looking one did), it stays put back and the model is told.
 */
import type { StepChange, StepJudge, StepVerdict } from '../checkpoints/step-watch';
import type { EngineHost } from './host';
import { parseAnswer } from '../tools/gate';

/** Paths named in the warning and for the model; the rest are counted. */
const SHOWN = 5;

const WHAT: Record<StepChange['what'], string> = {
  changed: 'changed',
  deleted: 'deleted',
  mode: 'permissions changed',
  created: 'created, configures programs',
};

function list(changes: StepChange[]): string {
  const shown = changes.slice(0, SHOWN).map((c) => `${c.path} (${WHAT[c.what]})`);
  if (changes.length > SHOWN) shown.push(`… ${changes.length - SHOWN} more`);
  return shown.join(', ');
}

function notRestoredNote(v: StepVerdict): string {
  if (!v.notRestored.length) return '';
  const n = v.notRestored.length;
  return `; not in the checkpoint, so left as the step left them: ${v.notRestored.slice(0, SHOWN).join(', ')}${n > SHOWN ? ` (… ${n - SHOWN} more)` : ''}`;
}

export interface AfterStep {
  /** The tool message for the model; null: the step's result stands as it is. */
  content: string | null;
  refused: boolean;
  denied: boolean;
}

/** Judge the step just run; `output` is what it returned to the model. */
export async function afterStep(watch: StepJudge, o: { host: EngineHost; yes: boolean; output: string }): Promise<AfterStep> {
  const kept: AfterStep = { content: null, refused: false, denied: false };
  let v: StepVerdict | null;
  try {
    v = await watch.check();
  } catch (err) {
    o.host.print({
      kind: 'warn',
      text: `  the step could not be compared with its checkpoint (${err instanceof Error ? err.message : String(err)})`,
    });
    return kept;
  }
  if (!v) return kept;
  const what = list(v.changes);
  o.host.print({
    kind: 'warn',
    text: `  put back: a step nobody approved ${what.includes('configures') ? 'changed what it may not' : 'changed files that existed before it'}: ${what}${notRestoredNote(v)}`,
  });
  const canAsk = !o.yes && o.host.canAsk !== false && v.keep !== null;
  const raw = canAsk ? await o.host.ask('keep these changes? [y/N] ') : null;
  if (raw !== null && parseAnswer(raw, false) === 'yes') {
    try {
      v.keep!();
      o.host.print({ kind: 'info', text: '  ↳ kept' });
      return kept;
    } catch (err) {
      o.host.print({
        kind: 'warn',
        text: `  could not put the changes in place again (${err instanceof Error ? err.message : String(err)})`,
      });
    }
  }
  const why =
    raw !== null
      ? 'the user chose not to keep them'
      : o.yes
        ? '--yes runs destructive steps, not ones that only look harmless'
        : v.keep === null && o.host.canAsk !== false
          ? 'they were too large to hold for the user to keep'
          : 'there was no one to confirm them';
  const content = `Not kept: this step ran, then its changes were put back, because a step nobody approved may not change, delete or re-mode files that existed before it, nor create files that configure programs (${what})${notRestoredNote(v)}; ${why}. Do not try it another way; do something else, or stop and explain.\nIts output was:\n${o.output}`;
  return { content, refused: raw === null, denied: raw !== null };
}
