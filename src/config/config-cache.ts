/**
 * Where jiti keeps config.ts compiled to JavaScript. Compiling costs ~95 ms of every start, so the
 * result is cached, but not where jiti caches by default: a shared `/tmp/jiti`, where the config
 * (API keys and all) is readable by every user of the machine, and a file planted there by someone
 * else would run as you. Ours is `<XDG cache>/aish/config-cache`, 0700 and yours; when it cannot be
 * had, nothing is cached and the config is compiled each time.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function configCacheDir(env: NodeJS.ProcessEnv = process.env): string | false {
  // A relative XDG_CACHE_HOME is to be ignored (the XDG spec); xdg-basedir's value is that same
  // variable as read at import, relative or not, so it is not the fallback.
  const fromEnv = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  const dir = join(fromEnv ?? join(homedir(), '.cache'), 'aish', 'config-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    // A link or someone else's directory in its place: its files are not ours to run.
    if (!st.isDirectory() || (process.getuid !== undefined && st.uid !== process.getuid())) return false;
    if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
    return dir;
  } catch {
    return false;
  }
}
