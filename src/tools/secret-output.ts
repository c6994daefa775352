/**
 * Without a sandbox nothing hides the credential stores, and the classifier sees a read only when
 * the command's words name a store: a script, a link to HOME, `find ~ | xargs head` or a search of
 * the project reach one unseen. So a step nobody approved that ran unsandboxed is also judged by
 * what it printed: before it runs, the values the stores hold (and aish's own secret variables) are
 * gathered; output holding one does not go to the model. Values are words that look like secrets
 * (8+ characters, letters and digits), found as printed and in the common ways a step can encode
 * them (base64, gzip then base64, hex dumps, rot13, reversed, split across lines: secret-views.ts).
 */
import type { Dirent } from 'node:fs';
import { lstat, readFile, readdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { scanProject } from './project-scan';
import { secretCandidates } from './secret-paths';
import { isSecretVariable } from './step-env';
import { outputViews } from './secret-views';

/** Bounds on the cost of every unsandboxed step: files read, their size, the walk's depth. */
const MAX_FILES = 400;
const MAX_FILE_BYTES = 256 * 1024;
const MAX_BYTES = 8 * 1024 * 1024;
const DEPTH = 4;

/** Each value found, with where it came from (`~/.aws/credentials`, `$GITHUB_TOKEN`). */
export type SecretValues = Map<string, string>;

/** Words of `text` that look like secrets: letters and digits, at least 8 characters. */
function secretWords(text: string): string[] {
  return text.split(/[\s"'`,;:=<>(){}[\]|\\]+/).filter((w) => w.length >= 8 && /\d/.test(w) && /[a-zA-Z]/.test(w));
}

/** The regular files at `path` (a file, or a directory walked a few levels, links not followed). */
async function filesAt(path: string, out: string[]): Promise<void> {
  let level = [path];
  for (let depth = 0; depth <= DEPTH && level.length && out.length < MAX_FILES; depth++) {
    const next: string[] = [];
    for (const p of level) {
      const st = await lstat(p).catch(() => null);
      if (st?.isFile() && st.size <= MAX_FILE_BYTES) out.push(p);
      else if (st?.isDirectory()) {
        const entries: Dirent[] = await readdir(p, { withFileTypes: true }).catch(() => []);
        next.push(...entries.map((e) => join(p, e.name)));
      }
      if (out.length >= MAX_FILES) break;
    }
    level = next;
  }
}

/**
 * Stores whose words are mostly not secrets (histories: commands; browser profiles and keyrings:
 * caches and ciphertext): matching them would withhold ordinary output.
 */
const WORDY = /(history|\/\.mozilla|\/google-chrome|\/chromium|\/BraveSoftware|\/keyrings)$/;

/** aish's config files (an API key may be in one), not its data (sessions hold what the model said). */
async function aishConfigs(files: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of files) {
    const st = await lstat(f).catch(() => null);
    if (st?.isFile() && !f.endsWith('.jsonl')) out.push(f);
    else if (st?.isDirectory()) {
      const names = await readdir(f).catch(() => []);
      out.push(...names.filter((n) => n.startsWith('config.')).map((n) => join(f, n)));
    }
  }
  return out;
}

export interface SecretSources {
  /** aish's directory: its `.env` files and keys are stores too. */
  project: string;
  /** aish's own config file and data directory. */
  aishFiles: readonly string[];
  env: NodeJS.ProcessEnv;
  /** HOME (default: the user's). */
  home?: string;
  /** Only these files (the project's, hidden by the sandbox; nothing else is in reach there). */
  only?: readonly string[];
}

/** What the credential stores and secret variables hold now. */
export async function gatherSecretValues(s: SecretSources): Promise<SecretValues> {
  const home = s.home ?? homedir();
  const scan = s.only ? { secrets: [...s.only] } : await scanProject(s.project);
  // The project's and aish's first: the bounds below must not be used up by a large store.
  const stores = secretCandidates({
    home,
    ...(s.env.XDG_CONFIG_HOME && { configHome: s.env.XDG_CONFIG_HOME }),
    project: s.project,
    extra: [],
  });
  const candidates = s.only
    ? scan.secrets
    : [...scan.secrets, ...(await aishConfigs(s.aishFiles)), ...stores.filter((c) => !WORDY.test(c))];
  const files: string[] = [];
  for (const c of candidates) {
    if (files.length >= MAX_FILES) break;
    const real = await realpath(c).catch(() => null);
    if (real) await filesAt(real, files);
  }
  const values: SecretValues = new Map();
  let bytes = 0;
  for (const f of new Set(files)) {
    if (bytes >= MAX_BYTES) break;
    const text = await readFile(f, 'latin1').catch(() => '');
    bytes += text.length;
    for (const w of secretWords(text)) if (!values.has(w)) values.set(w, f.startsWith(`${home}/`) ? `~${f.slice(home.length)}` : f);
  }
  if (s.only) return values;
  for (const [name, value] of Object.entries(s.env))
    if (value && value.length >= 8 && isSecretVariable(name, value)) values.set(value, `$${name}`);
  return values;
}

/** Values are looked up by their first characters (all are at least this long). */
const KEY = 8;
/** A rolling hash of KEY characters: B^(KEY-1), to take the first one out. */
const B = 31;
const B_TOP = Array.from({ length: KEY - 1 }).reduce<number>((p) => Math.imul(p, B), 1);
const BITS = 1 << 20;

const hashOf = (s: string, from: number): number => {
  let h = 0;
  for (let i = from; i < from + KEY; i++) h = (Math.imul(h, B) + s.charCodeAt(i)) | 0;
  return h;
};

/**
 * Where the first secret value found in `output` came from, or null: as printed, and in each
 * decoded view of it. One pass over each view: a rolling hash of its next KEY characters is looked
 * up in a bit table of the values' first KEY characters, and only a hit is compared.
 */
export function leakedFrom(values: SecretValues, output: string): string | null {
  const byKey = new Map<string, string[]>();
  const seen = new Uint8Array(BITS / 8);
  for (const v of values.keys()) {
    const k = v.slice(0, KEY);
    const list = byKey.get(k);
    if (list) list.push(v);
    else byKey.set(k, [v]);
    const bit = hashOf(v, 0) & (BITS - 1);
    seen[bit >> 3]! |= 1 << (bit & 7);
  }
  for (const view of outputViews(output)) {
    let h = view.length >= KEY ? hashOf(view, 0) : 0;
    for (let i = 0; i + KEY <= view.length; i++) {
      if (i > 0) h = (Math.imul(h - Math.imul(view.charCodeAt(i - 1), B_TOP), B) + view.charCodeAt(i + KEY - 1)) | 0;
      const bit = h & (BITS - 1);
      if (!(seen[bit >> 3]! & (1 << (bit & 7)))) continue;
      const found = byKey.get(view.slice(i, i + KEY))?.find((v) => view.startsWith(v, i));
      if (found) return values.get(found)!;
    }
  }
  return null;
}
