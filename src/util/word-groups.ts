/**
 * Words that mean the same to a developer, folded to one search term on both sides of a match (the
 * item and the question), so "k8s" finds "Kubernetes" and "DB" finds "database". A built-in table,
 * kept short and general, and the user's own groups (`memory.recall.synonyms`). Groups that share a
 * word are merged. A group's term is its first word or phrase as written, never stemmed, so it
 * cannot collide with a stem ("production" is not "product"). The index records a hash of both
 * tables (groupsKey): a change to either rebuilds it.
 */

/** Each line: the form the group is indexed under, then the words and phrases that mean it. */
const BUILT_IN = [
  'kubernetes, k8s, kube',
  'database, db',
  'authentication, auth, authn, authenticate, authenticated, authenticating, login, sign in, signin',
  'authorization, authz, authorize, authorized',
  'configuration, config, cfg, conf, configure, configured',
  'environment, env',
  'production, prod',
  'staging, stg',
  'development, dev',
  'repository, repo',
  'pull request, pr, merge request, mr',
  'continuous integration, ci',
  'infrastructure, infra',
  'dependency, dependencies, deps, dep',
  'performance, perf',
  'lint, linter, linting, linters',
  'javascript, js',
  'typescript, ts',
  'python, py',
  'postgres, postgresql, pg',
  'documentation, docs, doc',
  'application, app',
  'directory, dir, folder',
  'message, msg',
  'package, pkg',
  'temporary, tmp, temp',
  'variable, var',
  'function, func, fn',
  'argument, arg, args',
  'parameter, param, params',
  'credential, creds, cred',
];

/** The longest phrase a group may hold, in words. */
export const MAX_PHRASE_WORDS = 3;

export interface WordGroups {
  /** Lower-cased word, or words joined by one space → the group's term. */
  readonly forms: ReadonlyMap<string, string>;
  /** First words of phrases: only after one of these is a phrase looked for. */
  readonly phraseStarts: ReadonlySet<string>;
  /** The groups' terms. */
  readonly terms: ReadonlySet<string>;
}

/** Lower-cased words of a form, as the tokenizer cuts text ("Sign-in" → sign in). */
export function formWords(form: string): string[] {
  return form.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Plural (and singular) forms a listed word also stands for (of a phrase, its last word: "pull requests"). */
function withPlurals(form: string): string[] {
  const cut = form.lastIndexOf(' ') + 1;
  const head = form.slice(0, cut);
  const word = form.slice(cut);
  if (word.length < 2) return [form];
  const out = [form, head + word + 's'];
  // A plural as listed stands for its singular too ("invoices": invoice).
  if (/ies$/.test(word)) out.push(head + word.slice(0, -3) + 'y');
  else if (/[^s]s$/.test(word) && word.length > 3) out.push(head + word.slice(0, -1));
  if (/[^aeiou]y$/.test(word)) out.push(head + word.slice(0, -1) + 'ies');
  if (/(s|x|ch|sh)$/.test(word)) out.push(head + word + 'es');
  return out;
}

function build(user: ReadonlyArray<readonly string[]>): WordGroups {
  const lists = [...BUILT_IN.map((l) => l.split(',').map((w) => w.trim())), ...user];
  // Union-find over forms: groups sharing a form become one, named by the earliest group's first form.
  const parent = new Map<string, string>();
  const find = (f: string): string => {
    let r = f;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(f, r);
    return r;
  };
  const firstOf = new Map<string, number>();
  lists.forEach((list, i) => {
    const forms = list.map((w) => formWords(w).join(' ')).filter((w) => w.length > 0 && w.split(' ').length <= MAX_PHRASE_WORDS);
    for (const f of forms) {
      if (!parent.has(f)) {
        parent.set(f, f);
        firstOf.set(f, i);
      }
    }
    for (const f of forms.slice(1)) {
      const a = find(forms[0]!);
      const b = find(f);
      if (a === b) continue;
      // The root is the form of the earlier group, so the built-in names stay put.
      if (firstOf.get(a)! <= firstOf.get(b)!) parent.set(b, a);
      else parent.set(a, b);
    }
  });
  const forms = new Map<string, string>();
  const phraseStarts = new Set<string>();
  for (const f of parent.keys()) {
    const root = find(f);
    for (const v of withPlurals(f)) if (!forms.has(v)) forms.set(v, root);
    if (f.includes(' ')) phraseStarts.add(f.slice(0, f.indexOf(' ')));
  }
  return { forms, phraseStarts, terms: new Set(forms.values()) };
}

let userGroups: ReadonlyArray<readonly string[]> = [];
let built: WordGroups | null = null;
let key: string | null = null;

/** Identifies the groups (built-in and the user's), so an index cut with other groups is rebuilt; builds nothing. */
export function groupsKey(): string {
  return (key ??= JSON.stringify([BUILT_IN, userGroups]));
}

/** The groups in use (built on first use: start-up pays nothing unless recall runs). */
export function wordGroups(): WordGroups {
  return (built ??= build(userGroups));
}

/**
 * The user's synonyms (`memory.recall.synonyms`: word → words and phrases meaning the same), set
 * when the configuration is loaded. Text is cut by them from then on.
 */
export function setSynonyms(synonyms: Readonly<Record<string, readonly string[]>> | undefined): void {
  const groups = Object.entries(synonyms ?? {}).map(([k, v]) => [k, ...v]);
  if (JSON.stringify(groups) === JSON.stringify(userGroups)) return;
  userGroups = groups;
  built = null;
  key = null;
}
