/** `aish sessions list [--json]`, `aish sessions search TEXT... [--json]`, `aish sessions export NAME [FILE]` */
import type { Setup } from '../../config/setup';
import { formatHitLine, formatSessionLine, hiddenNote, noMatches } from '../../sessions/format';
import { searchSessions } from '../../sessions/search';
import { exportSession, writeExport } from '../../sessions/export-file';
import { listable, listSessions, resolveSession } from '../../sessions/sessions';
import { hangWrap } from '../../util/hang';
import { tildify } from '../../util/paths';
import { UsageError } from '../../util/errors';
import { escapeForJson } from '../../util/output-filter';
import { out, outJson } from './output';

export function sessionsList(s: Setup, opts: { json?: boolean; all?: boolean }): void {
  const every = listSessions(s.paths.sessionsDir);
  // Scripts get every session, with `answered` and `oneshot` to filter on; people the useful ones.
  const list = opts.all || opts.json ? every : every.filter(listable);
  const hidden = every.length - list.length;
  if (opts.json) {
    outJson(list.map((x) => ({ ...x, mtime: new Date(x.mtimeMs).toISOString() })));
    return;
  }
  if (list.length === 0) {
    out(`no sessions in ${s.paths.sessionsDir}${hidden ? ` (${hiddenNote(hidden, '--all')})` : ''}`);
    return;
  }
  const now = new Date();
  // In a terminal, rows too long hang-wrap at word boundaries as the lists inside aish do (the
  // terminal would cut words); piped output stays one row per line.
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  const fit = (line: string) => (width ? hangWrap(line, width, 4, { fromEdge: true }) : line);
  for (const x of list) {
    out(fit(formatSessionLine(x, now, x.named ? '+' : ' ')));
  }
  out(
    fit(
      `+ = saved with :save; continue one with aish --resume NAME (or aish -c for the latest)${hidden ? `; ${hiddenNote(hidden, '--all')}` : ''}`,
    ),
  );
}

/** `aish sessions search TEXT... [--json] [--limit N]`: exit 0 whether or not anything matches. */
export function sessionsSearch(s: Setup, words: string[], opts: { json?: boolean; limit?: string }): void {
  const query = words.join(' ');
  const hits = searchSessions(s.paths.sessionsDir, query, { limit: parseLimit(opts.limit) });
  if (opts.json) {
    outJson(hits.map(({ session, path, ts, role, snippet, score }) => ({ session, path, ts, role, snippet, score })));
    return;
  }
  if (hits.length === 0) {
    out(noMatches(query));
    return;
  }
  const now = new Date();
  for (const h of hits) out(formatHitLine(h, now));
}

function parseLimit(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`--limit needs a whole number ≥ 1, not ${JSON.stringify(v)}`);
  return Number(v);
}

/** `aish sessions export NAME [--format md|json] [--force] [--raw] [FILE]`: without FILE, to stdout. */
export function sessionsExport(
  s: Setup,
  name: string,
  file: string | undefined,
  opts: { format?: string; force?: boolean; raw?: boolean },
): void {
  const format = opts.format ?? 'md';
  if (format !== 'md' && format !== 'json') throw new UsageError(`unknown format "${format}" — use md or json`);
  const text = exportSession(resolveSession(s.paths.sessionsDir, name, 'aish sessions list'), name, format, undefined, {
    raw: opts.raw === true,
  });
  if (!file) {
    process.stdout.write(format === 'json' ? escapeForJson(text) : text);
    return;
  }
  out(`exported ${name} to ${tildify(writeExport(file, text, { force: opts.force === true }))}`);
}
