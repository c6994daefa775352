/**
 * The forms a project item's `scope` takes: `git:HOST/PATH` (or `git:/PATH` for a local remote) — the
 * normalized URL of the project's git remote; `id:NAME` — the content of its `.aish/project-id`; or an
 * absolute directory (or `~/…`) — the project's path, as before identities existed.
 */

/** `aish memory trust-project`: the verb that makes a checkout the project its identity scope names (named in messages). */
export const TRUST_VERB = 'trust-project';

/** What `.aish/project-id` may hold: one line of letters, digits and `._:/@+-`, at most 200 characters. */
export const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

/** `scope` is one of the forms above. */
export function isScope(scope: unknown): scope is string {
  if (typeof scope !== 'string') return false;
  if (scope.startsWith('/') || scope === '~' || scope.startsWith('~/')) return true;
  if (scope.startsWith('git:')) return scope.length > 4 && !/[\s\u0000-\u001f\u007f]/.test(scope);
  if (scope.startsWith('id:')) return PROJECT_ID.test(scope.slice(3));
  return false;
}

/** A path scope (an absolute directory or `~/…`), as opposed to an identity. */
export function isPathScope(scope: string): boolean {
  return scope.startsWith('/') || scope === '~' || scope.startsWith('~/');
}

/** The one-line reason a scope is refused, for the file checker and imports. */
export const SCOPE_FORMS = 'scope must be an absolute directory, "git:HOST/PATH" or "id:NAME", e.g. "/home/me/src/app"';
