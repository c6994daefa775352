/**
 * What an unasked step's git sees of a repository's configuration: a copy with only the keys that
 * name no program (an allowlist), bound read-only over the real file inside the sandbox. The
 * environment already outranks the fixed keys (core.fsmonitor, hooks, pagers, …); this covers what
 * is named per driver — a diff driver's textconv or command, a filter's clean/smudge/process, a
 * merge driver — and `diff.external`, `include.path`, remote helpers. The real files are untouched.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Keys kept (git prints them with section and name in lower case). Everything else is left out. */
const KEPT = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|worktree|autocrlf|eol|safecrlf|quotepath|abbrev|checkstat|trustctime|commentchar|splitindex|untrackedcache|sparsecheckout|sparsecheckoutcone|sharedrepository)$/,
  /^extensions\.[a-z]+$/,
  /^remote\..+\.(url|pushurl|fetch|push|mirror|tagopt|prune)$/,
  /^branch\..+\.(remote|merge|rebase|pushremote|description)$/,
  /^submodule\..+\.(url|path|active|branch)$/,
  /^user\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^(color|log|status|advice|index|pack|gc|feature)\.[a-z]+$/,
];

/**
 * Keys that make git start a program and that no environment override reaches (the fixed ones —
 * core.fsmonitor, hooks, pagers, credential helpers — are overridden for every unasked step).
 */
const PER_DRIVER =
  /^(diff\..+\.(textconv|command)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|diff\.external|include\.path|includeif\..+\.path)$/;

/** The keys of a `git config --list -z` listing that name a program per driver (or an include). */
function programKeys(listing: string): string[] {
  return listing
    .split('\0')
    .filter(Boolean)
    .map((e) => (e.includes('\n') ? e.slice(0, e.indexOf('\n')) : e))
    .filter((k) => PER_DRIVER.test(k));
}

/**
 * Without a sandbox, the configuration view cannot be put in place: the keys of these files that
 * would make git start a program (each as `key (file)`), for the caller to refuse the step.
 */
export async function programsNamed(files: string[]): Promise<string[]> {
  const found = await Promise.all(
    files.map(async (file) => {
      const listing = await listConfig(file);
      // Unreadable to git here: it cannot be vouched for either.
      return listing === null ? [`(unreadable) ${file}`] : programKeys(listing).map((k) => `${k} (${file})`);
    }),
  );
  return found.flat();
}

/** One `[section "sub"]` + `name = "value"` entry, quoted the way git reads it back. */
function entry(key: string, value: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  const sub = first === last ? null : key.slice(first + 1, last);
  const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
  return `[${section}${sub === null ? '' : ` ${q(sub)}`}]\n\t${name} = ${q(value)}\n`;
}

/** The kept part of `git config --list -z` output (`key\nvalue\0` per entry). */
export function keptConfig(listing: string): string {
  return (
    listing
      .split('\0')
      .filter(Boolean)
      .map((e) => {
        const nl = e.indexOf('\n');
        return nl < 0 ? [e, 'true'] : [e.slice(0, nl), e.slice(nl + 1)];
      })
      .filter(([k]) => KEPT.some((re) => re.test(k!)))
      // A token in a remote's URL (`https://user:token@host/…`) is a credential too.
      .map(([k, v]) => entry(k!, /\.(url|pushurl)$/.test(k!) ? v!.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/i, '$1') : v!))
      .join('')
  );
}

function listConfig(file: string): Promise<string | null> {
  return new Promise((resolve) => {
    // --file reads that one file only; --no-includes keeps it from following include.path.
    execFile(
      'git',
      ['config', '--file', file, '--no-includes', '--list', '-z'],
      { env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' }, maxBuffer: 4 * 1024 * 1024 },
      (err, stdout) => resolve(err ? null : stdout),
    );
  });
}

let privateDir: string | undefined;
let counter = 0;

/** Pairs [copy, real file] to bind over each other, and a cleanup for the copies. */
export async function gitConfigView(files: string[]): Promise<{ binds: Array<[string, string]>; done: () => void }> {
  if (!files.length) return { binds: [], done: () => {} };
  if (!privateDir) {
    const dir = mkdtempSync(join(tmpdir(), 'aish-gitview-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    privateDir = dir;
  }
  const dir = privateDir;
  const written: string[] = [];
  const binds = await Promise.all(
    files.map(async (file): Promise<[string, string]> => {
      const listing = await listConfig(file);
      // A file git cannot read (or no git at all) is shown empty rather than as it is.
      if (listing === null) return ['/dev/null', file];
      const copy = join(dir, `${process.pid}-${++counter}.config`);
      await writeFile(copy, keptConfig(listing), { mode: 0o600 });
      written.push(copy);
      return [copy, file];
    }),
  );
  return { binds, done: () => written.forEach((f) => rmSync(f, { force: true })) };
}
