/** `aish sessions list [--json]` */
import type { Setup } from '../../config/setup';
import { formatSessionLine } from '../../sessions/format';
import { listSessions } from '../../sessions/sessions';
import { out } from './output';

export function sessionsList(s: Setup, opts: { json?: boolean }): void {
  const list = listSessions(s.paths.sessionsDir);
  if (opts.json) {
    out(JSON.stringify(list.map((x) => ({ ...x, mtime: new Date(x.mtimeMs).toISOString() })), null, 2));
    return;
  }
  if (list.length === 0) {
    out(`no sessions in ${s.paths.sessionsDir}`);
    return;
  }
  const now = new Date();
  for (const x of list) {
    out(formatSessionLine(x, now, x.named ? '+' : ' '));
  }
  out('+ = saved with :save; continue one with aish --resume NAME (or aish -c for the latest)');
}
