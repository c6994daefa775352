import { homedir } from 'node:os';

/** ~/src/app rather than /home/me/src/app, for display. */
export function tildify(p: string): string {
  const h = homedir();
  return p === h ? '~' : p.startsWith(h + '/') ? `~${p.slice(h.length)}` : p;
}
