/**
 * The restore side of scan.ts: permission bits set back to what the checkpoint recorded (never
 * wider: with no per-path record, owner-only), and directories that were empty recreated.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { splitZ, type Git } from './git';
import type { ModeRecord } from './types';

/** The bits `path` (a directory ends in `/`) had at checkpoint time. */
function wantedMode(rec: ModeRecord, path: string, kind: 'file' | 'exec' | 'dir'): number {
  const common = kind === 'dir' ? rec.d : kind === 'exec' ? rec.x : rec.f;
  return rec.p ? (rec.p[path] ?? common) : common & 0o700;
}

/**
 * `written` and the directories above them that do not exist yet: what a checkout is about to
 * create. Their bits are set after it like the rest, but they are not counted as changed modes.
 */
export function aboutToCreate(dir: string, written: readonly string[]): Set<string> {
  const fresh = new Set<string>(written);
  for (const w of written) {
    for (let d = dirname(w); d !== '.' && !fresh.has(d); d = dirname(d)) {
      try {
        lstatSync(join(dir, d));
        break; // it exists, and so do the ones above it
      } catch {
        fresh.add(d);
      }
    }
  }
  return fresh;
}

function setMode(path: string, want: number): boolean {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink() || (st.mode & 0o7777) === want) return false;
    chmodSync(path, want);
    return true;
  } catch {
    return false; // not there: nothing to set
  }
}

/**
 * Every file of the target tree and its directories, and the recorded empty directories, get their
 * recorded bits back; missing empty directories are created. Returns what changed.
 */
export async function applyModes(
  git: Git,
  dir: string,
  commit: string,
  rec: ModeRecord,
  emptyDirs: readonly string[],
  fresh: ReadonlySet<string>,
): Promise<{ modes: number; dirs: number }> {
  let modes = 0;
  const made = new Set<string>();
  const dirs = new Set<string>();
  for (const entry of splitZ((await git.run(['ls-tree', '-r', '-z', '--full-tree', commit])).stdout)) {
    // "<mode> <type> <oid>\t<path>"
    const tab = entry.indexOf('\t');
    const mode = entry.slice(0, entry.indexOf(' '));
    const path = entry.slice(tab + 1);
    for (let d = dirname(path); d !== '.' && !dirs.has(d); d = dirname(d)) dirs.add(d);
    if (mode !== '100644' && mode !== '100755') continue; // links and nested repositories
    if (setMode(join(dir, path), wantedMode(rec, path, mode === '100755' ? 'exec' : 'file')) && !fresh.has(path)) modes++;
  }
  for (const d of emptyDirs) {
    const abs = join(dir, d);
    try {
      lstatSync(abs);
    } catch {
      mkdirSync(abs, { recursive: true, mode: 0o700 });
      made.add(d);
    }
    for (let p = d; p !== '.' && !dirs.has(p); p = dirname(p)) dirs.add(p);
  }
  for (const d of dirs) if (setMode(join(dir, d), wantedMode(rec, `${d}/`, 'dir')) && !made.has(d) && !fresh.has(d)) modes++;
  return { modes, dirs: made.size };
}
