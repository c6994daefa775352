/** A session from the command line's root options: the REPL, -p, --norris, -e, or plain lines on a pipe. */
import type { GlobalFlags, Setup } from '../../config/setup';
import { UsageError } from '../../util/errors';
import { startChat } from './start-chat';

export interface RootOptions extends GlobalFlags {
  prompt?: string;
  model?: string;
  continue?: boolean;
  resume?: string;
  norris?: string;
  yes?: boolean;
  suggest?: string;
}

/** Runs the session the options ask for; its exit status. */
export async function startSession(s: Setup, o: RootOptions): Promise<number> {
  const engineOpts = { model: o.model, memory: o.memory, resume: o.resume, continueLatest: o.continue };
  // A capture of the session being continued may still be writing its working state (the aish
  // that quit a moment ago handed it off): wait until it is done.
  if (o.continue || o.resume !== undefined) await (await import('./resume-wait')).waitForResumedCapture(s, o.resume);
  if (o.yes && o.norris === undefined) throw new UsageError('--yes only goes with --norris');
  if (o.suggest !== undefined) {
    if (o.prompt !== undefined || o.norris !== undefined) throw new UsageError('use -e alone, not with -p or --norris');
    if (!o.suggest.trim()) throw new UsageError('-e needs a request, e.g. aish -e "find files over 100 MB here"');
    return (await import('../suggest-cli')).runSuggest(s, o.suggest, engineOpts);
  }
  if (o.norris !== undefined) {
    if (o.prompt !== undefined) throw new UsageError('use either -p or --norris, not both');
    if (!o.norris.trim()) throw new UsageError('--norris needs a goal, e.g. aish --norris "make the tests pass"');
    return (await import('../norris-cli')).runNorrisCli(s, o.norris, { ...engineOpts, yes: o.yes === true });
  }
  if (o.prompt !== undefined) {
    if (!o.prompt.trim()) throw new UsageError('-p needs a question, e.g. aish -p "explain this error"');
    return (await import('../oneshot')).runOneShot(s, o.prompt, engineOpts);
  }
  return startChat(s, engineOpts);
}
