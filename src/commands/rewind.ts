/** :rewind [N] and :fork NAME: take back the last exchanges, or branch the conversation off. */
import { basename } from 'node:path';
import { describeCheckpoint, formatRestore } from '../checkpoints/format';
import { confirm } from '../core/host';
import { listSessions } from '../sessions/sessions';
import { UsageError } from '../util/errors';
import { tildify } from '../util/paths';
import { plural } from '../util/time';
import { oneLine } from '../util/text';
import { command, info, type CommandResult, type CommandServices } from './types';

type RewindServices = Pick<CommandServices, 'chat' | 'checkpoints' | 'ui'>;

/**
 * A checkpoint taken during the exchanges taken back: the oldest holds the files as they were before
 * them. Asked only when there is one and files differ from it now; a `no` keeps the files as they are.
 */
async function offerRestore({ checkpoints, ui }: RewindServices, since: string): Promise<string | null> {
  // The oldest checkpoint taken in those turns — or an older one, when their first writing step
  // found the files as that one had them and reused it.
  const before = await checkpoints.before(since);
  if (!before) return null;
  const now = new Date();
  const dir = tildify(checkpoints.dir);
  const at = describeCheckpoint(before, now);
  let changed: string[];
  try {
    changed = await checkpoints.changedSince(before);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    return `cannot compare ${dir} with checkpoint ${before.id} (${why}) — :restore ${before.id} puts the files back as they were before those turns`;
  }
  if (changed.length === 0) return `files unchanged since those turns began (checkpoint ${at})`;
  // What a yes would do goes first, on its own line: the question stays short.
  ui.print(info(`checkpoint ${at} has ${dir} as it was before those turns; changed since: ${namePaths(changed)}`));
  if (!(await confirm(ui, `files changed since: ${changed.length} — restore?`)))
    return 'files kept as they are (:checkpoints lists them, :restore ID puts one back)';
  return formatRestore(await checkpoints.restore(before.commit, ':checkpoints'), dir, now, ':restore');
}

/** The first few paths, shortened, and how many more. */
function namePaths(paths: readonly string[], shown = 3): string {
  const names = paths.slice(0, shown).map((p) => oneLine(p, 40));
  return paths.length > shown ? `${names.join(', ')}, +${paths.length - shown} more` : names.join(', ');
}

async function rewind(s: RewindServices, argv: string[]): Promise<CommandResult> {
  const n = argv.length === 0 ? 1 : Number(argv[0]);
  if (argv.length > 1 || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError('usage: :rewind [N] (how many exchanges to take back, 1 by default)');
  const r = s.chat.rewind(n);
  if (r.exchanges === 0) return { output: [info('nothing to rewind — no exchange in this conversation yet')] };
  const out = [info(`took back ${plural(r.exchanges, 'exchange')} (the session log keeps them)`)];
  if (r.prompt !== null) {
    if (s.ui.draft) {
      s.ui.draft(r.prompt);
      out.push(info('your prompt is back in the editor'));
    } else out.push(info(`your prompt was: ${r.prompt}`));
  }
  if (r.since === null) return { output: out };
  // Said before any question about the files, in the order it happened.
  for (const item of out) s.ui.print(item);
  const restored = await offerRestore(s, r.since);
  return { output: restored ? [info(restored)] : [] };
}

export const rewindCommand = command({
  needs: ['chat', 'checkpoints', 'ui'],
  name: 'rewind',
  args: '[N]',
  summary: 'take back the last N exchanges (1 by default); your prompt comes back to edit',
  help: [
    'The exchanges leave the conversation; the session log records the rewind and keeps them.',
    'With checkpoints taken in those turns, names the files changed since and asks whether to put them back.',
  ].join('\n'),
  complete: (_s, argv) => (argv.length === 0 ? ['1', '2', '3'] : []),
  run: ({ chat, checkpoints, ui, argv }) => rewind({ chat, checkpoints, ui }, argv),
});

export const forkCommand = command({
  needs: ['chat', 'sessions'],
  name: 'fork',
  args: '[--force] NAME',
  summary: 'save the conversation so far as NAME and go on in a new session from here',
  help: 'A name holding another conversation needs --force to be replaced.',
  complete: ({ sessions }, argv) =>
    argv.length === 0 || (argv.length === 1 && argv[0] === '--force')
      ? listSessions(sessions.sessionsDir)
          .filter((s) => s.named)
          .map((s) => s.name)
      : [],
  run: ({ chat, sessions, argv }) => {
    const force = argv[0] === '--force';
    const rest = force ? argv.slice(1) : argv;
    if (rest.length !== 1) throw new UsageError('usage: :fork [--force] NAME (letters, digits, ., _ or -)');
    const name = basename(chat.fork(rest[0]!, force), '.jsonl');
    return {
      output: [info(`saved as ${name} (aish --resume ${name}); this conversation goes on as session ${sessions.id ?? 'new'}`)],
    };
  },
});
