/** :export [--force] [--raw] [FILE] — this conversation as Markdown. */
import { sessionName } from '../sessions/sessions';
import { AishError, UsageError } from '../util/errors';
import { tildify } from '../util/paths';
import { command, info } from './types';

export const exportCommand = command({
  needs: ['sessions', 'paths', 'chat'],
  name: 'export',
  args: '[--force] [--raw] [FILE]',
  summary: 'write this conversation as Markdown (default: under the data dir; prints the path)',
  help: 'tool calls and their results are folded in <details>, !cmd output is a code block; secrets are [redacted] unless --raw; an existing FILE is kept unless --force',
  run: async ({ sessions, paths, chat, rest }) => {
    // Flags first or last; the rest of the line is the file name, spaces and all.
    let file = rest.trim();
    const flags = new Set<string>();
    for (;;) {
      const lead = /^(--force|--raw)(?:\s+|$)/.exec(file);
      const tail = lead ? null : /\s+(--force|--raw)$/.exec(file);
      if (lead) file = file.slice(lead[0].length);
      else if (tail) file = file.slice(0, tail.index);
      else break;
      flags.add((lead ?? tail)![1]!);
    }
    if (file.startsWith('-')) throw new UsageError('usage: :export [--force] [--raw] [FILE]');
    if (!sessions.path) throw new AishError('nothing to export yet — say something first');
    const { defaultExportPath, exportSession, writeExport } = await import('../sessions/export-file');
    const name = sessionName(sessions.path);
    const text = exportSession(sessions.path, name, 'md', chat.digest()?.title, { raw: flags.has('--raw') });
    const written = file
      ? writeExport(file, text, { force: flags.has('--force') })
      : writeExport(defaultExportPath(paths.dataDir, name, 'md'), text, { force: true, mkdir: true });
    return { output: [info(`exported to ${tildify(written)}${flags.has('--raw') ? ' (secrets kept: --raw)' : ''}`)] };
  },
});
