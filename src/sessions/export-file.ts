/**
 * Writing an export (`:export`, `aish sessions export`): private (0600) like the log it comes
 * from. A file the user names is never replaced unless they say --force; aish's own copy under
 * `<data dir>/exports/` is, since it is the same session exported again.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { AishError } from '../util/errors';
import { describeFsError, ensurePrivateDir } from '../util/fs-safe';
import { expandHome, tildify } from '../util/paths';
import { loadSession } from './sessions';
import { renderJson, renderMarkdown } from './export';
import { redactWholeTurn } from './redact-turn';
import { redactSecrets } from '../util/secrets/redact';

export type ExportFormat = 'md' | 'json';

export function defaultExportPath(dataDir: string, session: string, format: ExportFormat): string {
  return join(dataDir, 'exports', `${session}.${format}`);
}

/**
 * The export of one session log; `title` overrides the log's digest title (a running session's
 * newer one). Secrets are redacted unless `raw` (the user asked for the text as it was).
 */
export function exportSession(path: string, name: string, format: ExportFormat, title?: string, opts: { raw?: boolean } = {}): string {
  const loaded = loadSession(path);
  const turns = opts.raw ? loaded.turns : loaded.turns.map(redactWholeTurn);
  if (format === 'json') return renderJson(turns);
  const heading = title ?? loaded.digest?.title;
  return renderMarkdown({ name, turns, title: heading === undefined || opts.raw ? heading : redactSecrets(heading).text });
}

/** Write `text` to `file` (relative to aish's directory; `~` expanded); returns the absolute path. */
export function writeExport(file: string, text: string, opts: { force: boolean; mkdir?: boolean }): string {
  const target = resolve(expandHome(file));
  if (!opts.force && existsSync(target)) throw new AishError(`${tildify(target)} exists — give another FILE, or --force to replace it`);
  try {
    if (opts.mkdir) ensurePrivateDir(dirname(target));
    writeFileAtomicSync(target, text, { mode: 0o600, fsync: true });
  } catch (err) {
    throw new AishError(`cannot write ${tildify(target)}: ${describeFsError(err)} — nothing was changed`);
  }
  return target;
}
