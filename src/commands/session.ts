/** :save NAME, :sessions, :resume NAME */
import { basename } from 'node:path';
import { listSessions } from '../history/sessions';
import { formatSessionLine } from '../history/format';
import { UsageError } from '../util/errors';
import { info, type MetaCommand } from './types';

export const sessionCommands: MetaCommand[] = [
  {
    name: 'save',
    args: 'NAME',
    summary: 'keep a named copy of this session',
    run: ({ engine, argv }) => {
      if (argv.length !== 1) throw new UsageError('usage: :save NAME (letters, digits, ., _ or -)');
      const path = engine.saveSession(argv[0]!);
      return { output: [info(`saved as ${basename(path, '.jsonl')} — continue it later with :resume ${basename(path, '.jsonl')} or aish --resume ${basename(path, '.jsonl')}`)] };
    },
  },
  {
    name: 'sessions',
    summary: 'saved and recent sessions',
    run: ({ engine }) => {
      const list = listSessions(engine.paths.sessionsDir);
      if (list.length === 0) return { output: [info('no sessions yet')] };
      const now = new Date();
      const current = engine.sessionPath;
      const rows = list.slice(0, 30).map((s) => formatSessionLine(s, now, s.path === current ? '*' : s.named ? '+' : ' '));
      if (list.length > 30) rows.push(`… and ${list.length - 30} older`);
      rows.push('* = this session, + = saved with :save; continue one with :resume NAME');
      return { output: [info(rows.join('\n'))] };
    },
  },
  {
    name: 'resume',
    args: 'NAME',
    summary: 'continue a saved or recent session',
    complete: (engine) => listSessions(engine.paths.sessionsDir).map((s) => s.name),
    run: ({ engine, argv }) => {
      if (argv.length !== 1) throw new UsageError('usage: :resume NAME (see :sessions)');
      engine.resume(argv[0]!);
    },
  },
];
