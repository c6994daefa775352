/** :save NAME, :sessions [list], :sessions search TEXT, :resume NAME */
import { basename } from 'node:path';
import { formatHitLine, formatSessionLine, hiddenNote, noMatches } from '../sessions/format';
import { listable, listSessions } from '../sessions/sessions';
import { renderWorkingState } from '../sessions/digest';
import { UsageError } from '../util/errors';
import { plural } from '../util/time';
import { command, info, rows, type CommandResult, type CommandServices } from './types';

export const saveCommand = command({
  needs: ['sessions'],
  name: 'save',
  args: '[--force] NAME',
  summary: 'keep a named copy of this session',
  help: 'Saving again under the same name replaces the earlier save of this conversation; a name holding another conversation needs --force.',
  run: ({ sessions, argv }) => {
    const force = argv[0] === '--force';
    const rest = force ? argv.slice(1) : argv;
    if (rest.length !== 1) throw new UsageError('usage: :save [--force] NAME (letters, digits, ., _ or -)');
    const name = basename(sessions.save(rest[0]!, force), '.jsonl');
    return { output: [info(`saved as ${name} — continue it later with :resume ${name} or aish --resume ${name}`)] };
  },
});

function list({ sessions, argv }: Pick<CommandServices, 'sessions'> & { argv: string[] }): CommandResult {
  const every = listSessions(sessions.sessionsDir);
  if (argv.length > 0 && argv[0] !== '--all') throw new UsageError('usage: :sessions [list] [--all]');
  // This session is always shown, whatever it holds.
  const list = argv[0] === '--all' ? every : every.filter((s) => listable(s) || s.path === sessions.path);
  const hidden = every.length - list.length;
  if (list.length === 0) return { output: [info(`no sessions yet${hidden ? ` (${hiddenNote(hidden, ':sessions --all')})` : ''}`)] };
  const now = new Date();
  const lines = list.slice(0, 30).map((s) => formatSessionLine(s, now, s.path === sessions.path ? '*' : s.named ? '+' : ' '));
  if (list.length > 30) lines.push(`… and ${list.length - 30} older`);
  lines.push(
    `* = this session, + = saved with :save; continue one with :resume NAME${hidden ? `; ${hidden} one-shot or unanswered hidden (--all)` : ''}`,
  );
  return { output: [{ ...rows(lines.join('\n')), hangFromEdge: true }] };
}

/** `:sessions search TEXT`: the best turns of every log, this one included, one line each. */
async function search({ sessions, rest }: Pick<CommandServices, 'sessions'> & { rest: string }): Promise<CommandResult> {
  if (!rest.trim()) throw new UsageError('usage: :sessions search TEXT (words to look for in past sessions)');
  const { searchSessions } = await import('../sessions/search');
  const hits = searchSessions(sessions.sessionsDir, rest);
  if (hits.length === 0) return { output: [info(noMatches(rest))] };
  const now = new Date();
  return { output: [rows(hits.map((h) => formatHitLine(h, now)).join('\n'))] };
}

export const sessionsCommand = command({
  needs: ['sessions'],
  name: 'sessions',
  summary: 'saved and recent sessions; search past turns',
  subcommands: [
    {
      name: 'list',
      args: '[--all]',
      help: 'saved and recent sessions, newest first (also :sessions alone); --all: also one-shot runs and unanswered ones',
      run: list,
    },
    {
      name: 'search',
      args: 'TEXT',
      help: 'turns of every session that mention TEXT, most words matched first, then newest',
      run: search,
    },
  ],
  defaultSub: 'list',
});

/** `:session`: this session's name, title, summary and working state. */
export const sessionCommand = command({
  needs: ['chat', 'sessions', 'config'],
  name: 'session',
  summary: "this session's title, summary and working state (what aish -c resumes with)",
  run: ({ chat, sessions, config }) => {
    const d = chat.digest();
    const rows = [`session ${sessions.id ?? '(none yet — it starts with the first prompt)'}${d?.title ? ` — ${d.title}` : ''}`];
    if (d?.summary) rows.push(d.summary);
    const state = d?.state && renderWorkingState(d.state, { screen: true });
    // The state is Markdown (the model reads the same text): shown rendered, as answers are.
    if (state) return { output: [info(rows.join('\n')), { kind: 'info', text: state, markdown: true }] };
    if (!config.memory || config.memory.capture === 'off') rows.push('no working state: capture is off (memory.capture in the config)');
    else
      rows.push(
        `no working state yet — aish writes one in the background after ${plural(config.memory.captureMinTurns, 'prompt')}, when old turns leave the window, and at quit`,
      );
    return { output: [info(rows.join('\n'))] };
  },
});

export const resumeCommand = command({
  needs: ['sessions', 'chat'],
  name: 'resume',
  args: 'NAME',
  summary: 'continue a saved or recent session',
  complete: ({ sessions }, argv) => (argv.length === 0 ? listSessions(sessions.sessionsDir).map((s) => s.name) : []),
  run: ({ chat, argv }) => {
    if (argv.length !== 1) throw new UsageError('usage: :resume NAME (see :sessions)');
    chat.resume(argv[0]!);
  },
});
