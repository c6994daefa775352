/**
 * A git remote URL reduced to what names the repository, so that every spelling of one remote —
 * ssh, scp-like, https, with or without `.git`, credentials or a default port — gives one identity:
 * `git@github.com:acme/shop.git` → `github.com/acme/shop`. Local remotes (a path or `file://`) give
 * their absolute path. Returns undefined for anything that names no repository.
 */
import { isAbsolute, resolve } from 'node:path';

const DEFAULT_PORTS: Record<string, string> = {
  ssh: '22',
  'git+ssh': '22',
  'ssh+git': '22',
  git: '9418',
  http: '80',
  https: '443',
  ftp: '21',
  ftps: '990',
};
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//;

/** The identity of the remote `url`; relative local paths are resolved against `base` (the work tree). */
export function normalizeRemoteUrl(url: string, base = '/'): string | undefined {
  const u = url.trim();
  // Control characters or white space inside: not a URL anyone cloned from.
  if (u === '' || /[\s\u0000-\u001f\u007f]/.test(u)) return undefined;
  const scheme = SCHEME.exec(u);
  if (scheme) {
    const name = scheme[1]!.toLowerCase();
    const rest = u.slice(scheme[0].length);
    if (name === 'file') {
      const path = decodePath(rest.replace(/^localhost(?=\/)/i, ''));
      // file://otherhost/… is a network share this machine may not see the same way: no identity.
      return path.startsWith('/') ? localPath(path, base) : undefined;
    }
    return networked(name, rest);
  }
  // scp-like `[user@]host:path`: a colon before any slash (git's own rule), host not empty.
  const colon = u.indexOf(':');
  const slash = u.indexOf('/');
  if (colon > 0 && (slash < 0 || colon < slash) && !/^[A-Za-z]:$/.test(u.slice(0, colon + 1))) {
    const hostPart = u.slice(0, colon);
    const host = hostName(hostPart.slice(hostPart.lastIndexOf('@') + 1));
    const path = repoPath(u.slice(colon + 1));
    return host && path ? `${host}/${path}` : undefined;
  }
  return localPath(u, base);
}

/** `[userinfo@]host[:port]/path[?query][#fragment]` after `scheme://`: credentials, query and default port dropped. */
function networked(scheme: string, rest: string): string | undefined {
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const tail = end < 0 ? '' : rest.slice(end).replace(/[?#].*$/s, '');
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (!m) return undefined;
  const host = hostName(m[1]!);
  const port = m[2] && m[2] !== DEFAULT_PORTS[scheme] ? `:${m[2].replace(/^0+(?=\d)/, '')}` : '';
  const path = repoPath(tail);
  return host && path ? `${host}${port}/${path}` : undefined;
}

/** Host names compare case-insensitively; a trailing dot (fully qualified) changes nothing. */
function hostName(h: string): string | undefined {
  const host = h.toLowerCase().replace(/\.$/, '');
  if (host === '' || !/^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)$/.test(host)) return undefined;
  return host;
}

/**
 * Slashes collapsed, `.` and `..` resolved (a `..` above the top names nothing: undefined), one
 * trailing `.git` and trailing slashes dropped. Case is kept: only some servers ignore it.
 */
function repoPath(p: string): string | undefined {
  const out: string[] = [];
  for (const seg of decodePath(p).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  if (out.length === 0) return undefined;
  const last = out[out.length - 1]!.replace(/\.git$/, '');
  if (last === '') out.pop();
  else out[out.length - 1] = last;
  return out.length ? out.join('/') : undefined;
}

/** Percent-escapes of unreserved characters and `/` decoded, so `%7Eme` and `~me` agree; the rest kept. */
function decodePath(p: string): string {
  return p.replace(/%([0-9A-Fa-f]{2})/g, (all, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9._~/-]/.test(c) ? c : all.toUpperCase();
  });
}

/** A local remote: its absolute path, `.git` and trailing slashes dropped. */
function localPath(p: string, base: string): string | undefined {
  const abs = isAbsolute(p) ? resolve(p) : resolve(base, p);
  const path = repoPath(abs);
  return path ? `/${path}` : undefined;
}
