/**
 * `:memory summarize`: the session log (not the live context) minus earlier summarize turns goes to
 * the summarizer preset; each `kind: text` line of the answer is offered as a candidate,
 * `keep? [y/N/edit]`. Secrets are shown and stored redacted; a candidate repeating an active item
 * is marked (and, like every candidate, skipped unless the user says y).
 */
import { summarizerPreset } from '../core/capture-deps';
import { choiceOf } from './memory-review-io';
import { addItem } from '../memory/ops';
import { redactSecrets } from '../util/secrets/redact';
import { findDuplicate } from '../memory/review/duplicates';
import { buildTranscript, parseCandidates, summarizeMessages } from '../memory/review/summarize';
import { loadSession } from '../sessions/sessions';
import { UsageError } from '../util/errors';
import { info, type CommandServices, type SubCommand } from './types';

type Ctx = Pick<CommandServices, 'memory' | 'ui' | 'models' | 'run' | 'sessions'>;

/** `--yes`: keep every candidate that is not a duplicate; `--no`: show them, keep none; neither: ask. */
type Mode = 'ask' | 'yes' | 'no';

function modeOf(argv: readonly string[]): Mode {
  if (argv.length === 0) return 'ask';
  if (argv.length === 1 && (argv[0] === '--yes' || argv[0] === '--no')) return argv[0] === '--yes' ? 'yes' : 'no';
  throw new UsageError(
    'usage: :memory summarize [--yes|--no] (--yes keeps every new candidate, --no keeps none; scripts use them to never be asked)',
  );
}

async function summarize({ memory, ui, models, run, sessions, argv }: Ctx & { argv: string[] }) {
  const mode = modeOf(argv);
  const parts = await memory.review();
  const path = sessions.path;
  if (!path) return { output: [info('nothing to summarize yet — the session log is empty')] };
  const { text } = buildTranscript(loadSession(path).turns);
  if (!text.trim()) return { output: [info('nothing to summarize yet — the session log has no conversation')] };

  const preset = models.resolve(summarizerPreset(parts, models));
  const result = await run.cancellable(async (signal) => {
    ui.liveStart('tool', `summarizing with ${preset.name} (${preset.model})`);
    try {
      return await models.broker(preset).stream(summarizeMessages(text), { signal });
    } finally {
      ui.liveEnd();
    }
  });
  if (result.interrupted) return { output: [info('summarize cancelled; nothing added')] };
  // Logged (secrets redacted) so the session is complete, and tagged so the next summarize does not feed on it.
  sessions.append({ role: 'assistant', content: redactSecrets(result.content).text, meta: 'summarize' });

  const candidates = parseCandidates(result.content);
  if (candidates.length === 0)
    return { output: [info('the model proposed nothing worth remembering'), info('[aish] memory: added 0 candidates')] };

  const { store } = parts;
  store.reload();
  const active = [...store.items()];
  const tally: Tally = { kept: [], skipped: 0, known: [], unasked: 0 };
  for (const [i, c] of candidates.entries()) {
    const red = redactSecrets(c.content);
    const dup = findDuplicate({ kind: c.kind, content: red.text }, active);
    const notes = [
      red.found.length ? `redacted: ${[...new Set(red.found)].join(', ')}` : '',
      dup ? `duplicates memory ${dup.id} — skip it?` : '',
    ].filter(Boolean);
    ui.print(
      info(`[memory] candidate ${i + 1}/${candidates.length} (${c.kind}): ${red.text}${notes.length ? `  (${notes.join('; ')})` : ''}`),
    );
    // A script decides up front: duplicates are never kept by --yes.
    const answer = mode === 'ask' ? await ui.ask('keep? [y/N/edit] ') : mode === 'yes' && !dup ? 'y' : 'n';
    if (mode !== 'ask') ui.print(info(`keep? ${answer === 'y' ? 'yes' : 'no'} (--${mode})`));
    const a = choiceOf(answer, ['yes', 'edit']);
    if (a === null) {
      tally.unasked = candidates.length - i; // nobody to ask any more (end of input): keep nothing further
      break;
    }
    let content: string | null = null;
    if (a === 'yes') content = red.text;
    else if (a === 'edit') {
      const edited = await ui.ask('edit: ', { initial: red.text });
      if (edited && edited.trim()) content = edited.trim();
    }
    if (!content) {
      tally.skipped++;
      continue;
    }
    const keys = c.keys?.map((k) => redactSecrets(k).text);
    const r = await addItem(store, c.kind, content, { ...(sessions.id && { source: `session:${sessions.id}` }), ...(keys && { keys }) });
    if (!r.changed) {
      tally.known.push(r.item.id);
      continue;
    }
    // What is stored, as stored (edited, redacted), so the screen records what was kept.
    if (content !== red.text) ui.print(info(`kept as #${r.item.id}: ${r.item.content}`));
    active.unshift(r.item);
    tally.kept.push(r.item.id);
  }
  parts.changed();
  return { output: [info(`[aish] memory: ${tallyLine(tally)}`)] };
}

interface Tally {
  kept: number[];
  skipped: number;
  /** Kept, but an item already said the same: nothing written. */
  known: number[];
  /** Left when nobody could answer any more. */
  unasked: number;
}

const ids = (list: number[]) => list.map((id) => `#${id}`).join(', ');

/** What happened to every candidate, in one line: `added 2 candidates (#5, #6), skipped 1`. */
export function tallyLine(t: Tally): string {
  const added = `added ${t.kept.length} candidate${t.kept.length === 1 ? '' : 's'}`;
  const parts = [t.kept.length ? `${added} (${ids(t.kept)})` : added];
  if (t.known.length) parts.push(`${t.known.length} already remembered (${ids(t.known)})`);
  if (t.skipped) parts.push(`skipped ${t.skipped}`);
  if (t.unasked) parts.push(`${t.unasked} not asked (no answer)`);
  return parts.join(', ');
}

export const summarizeSubcommand: SubCommand<'memory' | 'ui' | 'models' | 'run' | 'sessions'> = {
  name: 'summarize',
  args: '[--yes|--no]',
  help: 'propose items from this session; keep? [y/N/edit] for each (--yes: keep all new ones, --no: none)',
  complete: (_s, argv) => (argv.length === 0 ? ['--yes', '--no'] : []),
  run: (ctx) => summarize(ctx),
};
