/**
 * Which projects' `.aish/rules` the user trusts: `<data dir>/trusted-rules.json` (0600), the
 * project directory (its real path) → the SHA-256 of the rules file as it was trusted. A file
 * edited since reads as untrusted until `:trust` again. Rewritten whole and read back before it
 * counts as written; an unreadable store trusts nothing.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError, errnoCode, formatError } from '../../util/errors';
import { ensurePrivateDir } from '../../util/fs-safe';

export const TRUST_FILE = 'trusted-rules.json';

interface TrustEntry {
  sha256: string;
  trustedAt: string;
}
type Trusted = Record<string, TrustEntry>;

// node:crypto is required when a rules file is first hashed, not at start-up.
export const sha256 = (data: string | Buffer): string =>
  (createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto')).createHash('sha256').update(data).digest('hex');

/** The store's entries; null when the file exists but cannot be read as one. */
function load(dataDir: string): Trusted | null {
  let text: string;
  try {
    text = readFileSync(join(dataDir, TRUST_FILE), 'utf8');
  } catch (err) {
    return errnoCode(err) === 'ENOENT' ? {} : null;
  }
  try {
    const v = JSON.parse(text) as { projects?: unknown };
    if (typeof v.projects !== 'object' || v.projects === null || Array.isArray(v.projects)) return null;
    const out: Trusted = {};
    for (const [dir, e] of Object.entries(v.projects as Record<string, Partial<TrustEntry>>))
      if (typeof e?.sha256 === 'string') out[dir] = { sha256: e.sha256, trustedAt: String(e.trustedAt ?? '') };
    return out;
  } catch {
    return null;
  }
}

/** The hash the user trusted for this project directory, if any. */
export function trustedHash(dataDir: string, projectDir: string): string | null {
  return load(dataDir)?.[projectDir]?.sha256 ?? null;
}

function save(dataDir: string, update: (t: Trusted) => void): void {
  const path = join(dataDir, TRUST_FILE);
  const current = load(dataDir);
  if (current === null) throw new AishError(`${path} is not a trust list aish can read — fix or remove it, then trust again`);
  update(current);
  const text = `${JSON.stringify({ version: 1, projects: current }, null, 2)}\n`;
  try {
    ensurePrivateDir(dataDir);
    writeFileAtomicSync(path, text, { mode: 0o600, fsync: true });
  } catch (err) {
    throw new AishError(`cannot write ${path}: ${formatError(err)}`);
  }
  let back = '';
  try {
    back = readFileSync(path, 'utf8');
  } catch {
    // reported below
  }
  if (back !== text) throw new AishError(`${path} did not reach the disk whole — check free space, then trust again`);
}

export function trustProject(dataDir: string, projectDir: string, hash: string): void {
  save(dataDir, (t) => void (t[projectDir] = { sha256: hash, trustedAt: new Date().toISOString() }));
}

/** false when the project was not trusted. */
export function revokeProject(dataDir: string, projectDir: string): boolean {
  if (!(projectDir in (load(dataDir) ?? {}))) return false;
  save(dataDir, (t) => void delete t[projectDir]);
  return true;
}
