// The REPL's settled first frame as the last start left it (prompt and status line, `mem N`
// included), so the launcher can draw it ~150 ms before Ink mounts. The bundle writes the cache
// (src/frontends/repl/frame-cache.ts); this file only reads it. An entry is used only when
// everything it was drawn from is as it was: the same bundle, directory, terminal size and
// relevant environment (the key), and the same config, memory and inbox files (size, mtime,
// inode, or still absent). Ink compares its own first frame with it at mount and redraws when
// they differ, so a wrong guess costs a redraw, never a wrong screen.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { homedir } = require('node:os');
const { isAbsolute, join } = require('node:path');

const VERSION = 1;

// What the frame can depend on besides files. Secrets count only as set or not (the no-key welcome
// line depends on that); their values are never hashed or stored.
const RELEVANT = /^(AISH_|OPENAI_|XDG_|LC_|LANG$|HOME$|TERM$|COLORTERM$|TERM_PROGRAM$|NO_COLOR$|FORCE_COLOR$|CI$)/;
const SECRET = /KEY|TOKEN|SECRET|PASSWORD/i;

/** cyrb53: a fast 53-bit string hash; the key only has to tell starts apart, not resist anyone. */
function hash(str) {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

function cacheFile(env) {
  // A relative XDG_CACHE_HOME is ignored, as the XDG spec says: it would put the cache in whatever
  // directory aish was started from.
  const xdg = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : undefined;
  return join(xdg || join(env.HOME || homedir(), '.cache'), 'aish', 'first-frame.json');
}

function keyOf(bundle, env, out) {
  const vars = Object.keys(env)
    .filter((k) => RELEVANT.test(k))
    .sort()
    .map((k) => (SECRET.test(k) ? `${k}?${env[k] ? 1 : 0}` : `${k}=${env[k]}`));
  return hash(JSON.stringify([VERSION, bundle.size, bundle.mtimeMs, process.cwd(), out.columns, out.rows, vars]));
}

/** [path, size, mtimeMs, ino] for a file, [path] for one that must still be absent. */
function unchanged(v) {
  if (!Array.isArray(v) || typeof v[0] !== 'string') return false;
  const st = statSync(v[0], { throwIfNoEntry: false });
  if (v.length === 1) return st === undefined;
  return st !== undefined && st.size === v[1] && st.mtimeMs === v[2] && st.ino === v[3];
}

// Only text, colours (SGR) and newlines: a cache file edited by hand cannot move the cursor or
// send other sequences to the terminal.
const PLAIN_FRAME = /^(?:[^\x00-\x09\x0b-\x1f\x7f-\x9f]|\x1b\[[0-9;]*m)*$/;

/**
 * Where the cache is and this start's key (for the bundle to write to), and the frame to draw when
 * the cache has one for this start. Never throws: no cache just means no early frame.
 */
exports.lookup = function lookup(bundlePath, env = process.env, out = process.stdout) {
  try {
    const bundle = statSync(bundlePath);
    const found = { path: cacheFile(env), key: keyOf(bundle, env, out), frame: undefined };
    let data;
    try {
      data = JSON.parse(readFileSync(found.path, 'utf8'));
    } catch {
      return found;
    }
    const entry =
      data && data.v === VERSION && Array.isArray(data.entries) ? data.entries.find((e) => e && e.key === found.key) : undefined;
    if (!entry || typeof entry.frame !== 'string' || !PLAIN_FRAME.test(entry.frame) || !entry.frame.endsWith('\n')) return found;
    const lines = entry.frame.split('\n').length - 1;
    if (lines < 1 || lines >= (out.rows || 24) || !Array.isArray(entry.files) || !entry.files.every(unchanged)) return found;
    found.frame = entry.frame;
    return found;
  } catch {
    return undefined;
  }
};
