/**
 * A project's own rules: `.aish/rules` in aish's directory or the nearest directory above it (up to,
 * not including, the home directory). One rule per line (`deny git push`), `#` starts a comment.
 * They count only once the user has trusted that file's content (trust.ts): a repository cannot
 * allow its own commands.
 */
import { openSync, closeSync, fstatSync, readSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseRuleLine, formatRule } from '../../config/rule-line';
import { formatError } from '../../util/errors';
import { realPath, tildify } from '../../util/paths';
import type { SourcedRule } from './check';
import { sha256, trustedHash } from './trust';

const PROJECT_RULES = join('.aish', 'rules');
const MAX_BYTES = 64 * 1024;

type TrustState = 'trusted' | 'untrusted' | 'changed';

export interface ProjectRules {
  /** The file, and the project directory (real path) trust is recorded for. */
  file: string;
  dir: string;
  sha256: string;
  rules: SourcedRule[];
  /** One line each, `FILE:LINE: …`; a file with errors cannot be trusted. */
  errors: string[];
  trust: TrustState;
}

export function findProjectRules(cwd: string, home = homedir()): string | null {
  for (let dir = cwd; dir !== home; dir = dirname(dir)) {
    const file = join(dir, PROJECT_RULES);
    try {
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
    if (dirname(dir) === dir) break;
  }
  return null;
}

/** Rules of a rules file's text, and its errors (each naming the line). */
export function parseRulesFile(text: string, file: string): { rules: SourcedRule[]; errors: string[] } {
  const rules: SourcedRule[] = [];
  const errors: string[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const body = line.trimStart().startsWith('#') ? '' : line.replace(/\s#.*$/, '');
    if (!body.trim()) return;
    const r = parseRuleLine(body);
    if ('error' in r) errors.push(`${file}:${i + 1}: ${r.error}`);
    else rules.push({ ...r, text: formatRule(r), source: `${tildify(file)}:${i + 1}` });
  });
  return { rules, errors };
}

function readSmall(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES / 1024} KiB`);
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < st.size) {
      const r = readSync(fd, buf, n, st.size - n, n);
      if (r === 0) break;
      n += r;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** The project's rules file and its state; null when there is none. */
export function loadProjectRules(cwd: string, dataDir: string | null, home?: string): ProjectRules | null {
  const file = findProjectRules(cwd, home);
  if (!file) return null;
  const dir = realPath(dirname(dirname(file)));
  let data: Buffer;
  try {
    data = readSmall(file);
  } catch (err) {
    return { file, dir, sha256: '', rules: [], errors: [`${file}: cannot be read (${formatError(err)})`], trust: 'untrusted' };
  }
  const hash = sha256(data);
  const { rules, errors } = parseRulesFile(data.toString('utf8'), file);
  const known = dataDir ? trustedHash(dataDir, dir) : null;
  const trust: TrustState = known === null ? 'untrusted' : known === hash && errors.length === 0 ? 'trusted' : 'changed';
  return { file, dir, sha256: hash, rules, errors, trust };
}
