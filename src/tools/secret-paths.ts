/**
 * The credential stores a step that nobody approved must not read: found on disk before each such
 * step (they come and go), resolved through symlinks, and handed to the sandbox to cover — a
 * directory with an empty tmpfs, a file with /dev/null. Why each entry is here: docs/sandbox.md.
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { isWithin } from '../util/paths';
import type { SandboxView } from './sandbox/types';

/** Under HOME: keys, tokens, cloud and registry logins, keyrings, browser profiles, shell histories. */
const HOME_SECRETS: readonly string[] = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.terraform.d/credentials.tfrc.json',
  '.password-store',
  '.local/share/keyrings',
  '.mozilla',
  '.codex',
  '.claude/.credentials.json',
  '.bash_history',
  '.zsh_history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  '.local/share/fish/fish_history',
];

/** Under the XDG config directory (~/.config unless XDG_CONFIG_HOME says otherwise). */
const CONFIG_SECRETS: readonly string[] = [
  'gh',
  'hub',
  'gcloud',
  'git/credentials',
  'rclone',
  'op',
  'github-copilot',
  'google-chrome',
  'chromium',
  'BraveSoftware',
];

/** Readable by root even without capabilities (it owns them). */
export const SYSTEM_SECRETS: readonly string[] = [
  '/etc/shadow',
  '/etc/gshadow',
  '/etc/ssh/ssh_host_rsa_key',
  '/etc/ssh/ssh_host_ecdsa_key',
  '/etc/ssh/ssh_host_ed25519_key',
];

/**
 * Under HOME, what runs by itself later (shell and login start-up, autostart, user services, git's
 * own config and hooks): kept read-only when aish's directory is HOME or above it, so that a step
 * that may write there cannot leave something behind to run outside the sandbox.
 */
const HOME_START_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.inputrc',
  '.xprofile',
  '.xinitrc',
  '.pam_environment',
  '.gitconfig',
  '.config/git',
  '.config/fish',
  '.config/autostart',
  '.config/systemd',
  '.config/environment.d',
  '.local/bin',
  '.local/share/applications',
  '.ssh',
  '.npmrc',
  '.config/aish',
];

/** The start-up files that exist, resolved (a missing one cannot be mounted over). */
export async function startFiles(home: string): Promise<string[]> {
  const found = await Promise.all(HOME_START_FILES.map((f) => realpath(join(home, f)).catch(() => null)));
  return found.filter((f): f is string => f !== null).sort();
}

export interface SecretPlaces {
  home: string;
  /** XDG_CONFIG_HOME, when set. */
  configHome?: string;
  /** aish's own directory (the project); never hidden itself, nor anything above it. */
  project: string;
  /** aish's config file and data directory, the project's `.env` files (see scanProject), … */
  extra: string[];
}

/** Every place a credential store may be, existing or not. */
export function secretCandidates(p: SecretPlaces): string[] {
  const configHome = p.configHome && isAbsolute(p.configHome) ? p.configHome : join(p.home, '.config');
  return [
    ...HOME_SECRETS.map((s) => join(p.home, s)),
    ...CONFIG_SECRETS.flatMap((s) => [join(configHome, s), join(p.home, '.config', s)]),
    ...SYSTEM_SECRETS,
    ...p.extra,
  ];
}

/** The existing ones, resolved: what the sandbox covers for a step nobody approved. */
export async function findSecrets(p: SecretPlaces): Promise<SandboxView['hidden']> {
  const candidates = secretCandidates(p);
  const project = await realpath(p.project).catch(() => p.project);
  const dirs = new Set<string>();
  const files = new Set<string>();
  await Promise.all(
    candidates.map(async (c) => {
      // Through symlinks: a link to a key elsewhere hides the key, not the link.
      const real = await realpath(c).catch(() => null);
      if (!real || isWithin(project, real)) return;
      const st = await stat(real).catch(() => null);
      if (st?.isDirectory()) dirs.add(real);
      else if (st) files.add(real);
    }),
  );
  // A file inside a hidden directory is covered already (and its mount point would be gone).
  const underDir = (f: string) => [...dirs].some((d) => f !== d && isWithin(f, d));
  return { dirs: [...dirs].filter((d) => !underDir(d)).sort(), files: [...files].filter((f) => !underDir(f)).sort() };
}

/**
 * aish's own files: its config (the whole `…/aish/` directory when the file is in one, else the
 * file), its data directory (memory, sessions, checkpoints) and a memory file kept elsewhere.
 */
export function aishSecrets(configPath: string | null, dataDir: string, memoryPath: string): string[] {
  const config = configPath ? [/\/aish\/[^/]+$/.test(configPath) ? dirname(configPath) : configPath] : [];
  return [...config, dataDir, memoryPath];
}
