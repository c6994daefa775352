/** :export [--force] [FILE] — this conversation as Markdown. */
import { sessionName } from '../sessions/sessions';
import { AishError, UsageError } from '../util/errors';
import { tildify } from '../util/paths';
import { command, info } from './types';

export const exportCommand = command({
  needs: ['sessions', 'paths', 'chat'],
  name: 'export',
  args: '[--force] [FILE]',
  summary: 'write this conversation as Markdown (default: under the data dir; prints the path)',
  help: 'tool calls and their results are folded in <details>, !cmd output is a code block; an existing FILE is kept unless --force',
  run: async ({ sessions, paths, chat, argv, rest }) => {
    // --force first or last; the rest of the line is the file name, spaces and all.
    const force = argv[0] === '--force' || (argv.length > 1 && argv.at(-1) === '--force');
    const file = rest.replace(/^--force(\s+|$)|\s+--force$/, '').trim() || undefined;
    if (file?.startsWith('-')) throw new UsageError('usage: :export [--force] [FILE]');
    if (!sessions.path) throw new AishError('nothing to export yet — say something first');
    const { defaultExportPath, exportSession, writeExport } = await import('../sessions/export-file');
    const name = sessionName(sessions.path);
    const text = exportSession(sessions.path, name, 'md', chat.digest()?.title);
    const written = file
      ? writeExport(file, text, { force })
      : writeExport(defaultExportPath(paths.dataDir, name, 'md'), text, { force: true, mkdir: true });
    return { output: [info(`exported to ${tildify(written)}`)] };
  },
});
