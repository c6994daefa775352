/**
 * git: history rewrites and lost work (`reset --hard`, `clean -f`, `push --force`, `rebase`,
 * `commit --amend`, `checkout REV -- path`, `restore`, `stash`), commands that rewrite the work
 * tree or the index (`rm`, `mv`, `apply`, `am`, `read-tree`, `update-index`), and configuration that
 * names a program git will run (`-c core.pager=…`, `git config core.fsmonitor …`, `init
 * --template`, `--git-dir` of another repository).
 */
import type { Arg } from './shell-parser';
import { clip, has, hasLong, parseFlags, type Flags, type Rule, type RuleContext } from './rule-kit';

/** A checkout operand that names files rather than a branch: `.`, `./x`, `:/x`, `file.txt`. */
const PATHLIKE = /^(\.|:\/|\*)|\.[A-Za-z]\w*$/;
const CHECKOUT_VALUES = ['-b', '-B', '-c', '-C', '--orphan', '--conflict', '-U', '--unified', '--inter-hunk-context'];
const GIT_VALUES = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix'];

/**
 * Configuration keys that only change how git presents or labels things. Every other key may name
 * a program (core.pager, core.sshCommand, core.fsmonitor, alias.*, diff.*.textconv, filter.*,
 * credential.helper, include.path, …), so setting it counts as running that program.
 */
const HARMLESS_KEY =
  /^(user\.(name|email|signingkey)|author\.\w+|committer\.\w+|color\..+|advice\..+|init\.defaultbranch|core\.(quotepath|autocrlf|safecrlf|filemode|ignorecase|abbrev|eol|whitespace|precomposeunicode)|commit\.(gpgsign|verbose|cleanup)|tag\.(gpgsign|sort)|log\.[\w.]+|format\.pretty|diff\.(noprefix|renames|algorithm|colormoved|mnemonicprefix|context|submodule)|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.prune|safe\.directory|column\.\w+|status\.\w+|merge\.conflictstyle|rebase\.(autosquash|autostash|updaterefs)|i18n\.\w+|gc\.auto|branch\.sort|help\.autocorrect|credential\.usehttppath|http\.sslverify)$/i;

function checkConfigKey(key: string, ctx: RuleContext): void {
  if (!HARMLESS_KEY.test(key)) ctx.flag(`git config ${clip(key)} (may run a program)`);
}

/** Global options: `-c key=value`, `--config-env=key=ENV`, `--exec-path=dir`. */
function globalOptions(args: Arg[], ctx: RuleContext): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const t = a.text;
    if (a.dynamic && i === 0) return i;
    if (t === '-c' || t === '--config-env' || /^-c./.test(t) || t.startsWith('--config-env=')) {
      const value = t === '-c' || t === '--config-env' ? args[++i] : { ...a, text: t.replace(/^(-c|--config-env=)/, '') };
      if (!value || value.dynamic) ctx.flag('git -c with unknown value');
      else checkConfigKey(value.text.split('=')[0]!, ctx);
    } else if (t.startsWith('--exec-path=') || t === '--exec-path') {
      if (t !== '--exec-path') ctx.flag('git --exec-path (runs other programs)');
    } else if (/^--(git-dir|work-tree)(=|$)/.test(t)) {
      ctx.flag(`git ${t.split('=')[0]} (uses another repository's configuration)`);
      if (!t.includes('=')) i++;
    } else if (GIT_VALUES.includes(t)) i++;
    else if (!t.startsWith('-')) return i;
  }
  return args.length;
}

/** `git config KEY VALUE`, `git config --add/--replace-all KEY VALUE`, `git config set KEY VALUE`. */
function config(rest: Arg[], f: Flags, ctx: RuleContext): void {
  const p = f.positionals.map((a) => a.text);
  const reads =
    hasLong(
      f,
      '--get',
      '--get-all',
      '--get-regexp',
      '--list',
      '--unset',
      '--unset-all',
      '--remove-section',
      '--rename-section',
      '--edit',
      '--show-origin',
      '--name-only',
    ) || has(f, 'le');
  if (p[0] === 'set') return p[1] === undefined ? undefined : checkConfigKey(p[1], ctx);
  if (['get', 'list', 'unset', 'remove-section', 'rename-section', 'edit'].includes(p[0] ?? '')) return;
  if (rest.some((a) => a.dynamic)) return ctx.flag('git config with unknown value');
  if (!reads && p.length >= 2) checkConfigKey(p[0]!, ctx);
  if (hasLong(f, '--add', '--replace-all') && p[0]) checkConfigKey(p[0], ctx);
}

/** Subcommand options that run a command: `rebase --exec`, `grep -O`, `clone -u`, `fetch --upload-pack`. */
function commandOptions(sub: string, rest: Arg[], ctx: RuleContext): void {
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]!.text;
    const value = (): string | undefined => (t.includes('=') ? t.slice(t.indexOf('=') + 1) : rest[++i]?.text);
    if ((sub === 'rebase' && (t === '-x' || t.startsWith('--exec'))) || (sub === 'submodule' && t === 'foreach')) {
      const script =
        sub === 'submodule'
          ? rest
              .slice(i + 1)
              .map((a) => a.text)
              .join(' ')
          : value();
      if (script !== undefined) ctx.runScript(script);
      if (sub === 'submodule') return;
    } else if (/^--(template|separate-git-dir)(=|$)/.test(t) || (sub === 'clone' && /^(-c|--config)(=|$)/.test(t))) {
      ctx.flag(`git ${sub} ${t.split('=')[0]} (plants configuration or hooks)`);
    } else if ((/^--outp?u?t?(=|$)/.test(t) && t.length >= 5) || (sub === 'archive' && /^-o/.test(t))) {
      ctx.flag(`git ${sub} --output (overwrites a file)`);
    } else if (
      /^--(upload-pack|receive-pack|exec)(=|$)/.test(t) ||
      (sub === 'clone' && t === '-u') ||
      (sub === 'grep' && /^(-O|--open-files-in-pager)/.test(t))
    ) {
      ctx.flag(`git ${sub} ${t.split('=')[0]} (runs a program)`);
    }
  }
}

export const git: Rule = (args, ctx) => {
  const at = globalOptions(args, ctx);
  const subArg = args[at];
  if (!subArg) return;
  if (subArg.dynamic) return ctx.flag(`git ${clip(subArg.text)}`);
  const sub = subArg.text;
  const rest = args.slice(at + 1);
  const f = parseFlags(rest);
  const p = f.positionals.map((a) => a.text);
  const hit = (what: string): void => ctx.flag(`git ${what}`);
  commandOptions(sub, rest, ctx);
  switch (sub) {
    case 'config':
      return config(rest, f, ctx);
    case 'reset':
      return hasLong(f, '--hard', '--merge') ? hit('reset --hard') : undefined;
    case 'clean':
      return has(f, 'n', '--dry-run') ? undefined : hit('clean -f');
    case 'push':
      if (has(f, 'f', '--force', '--force-with-lease', '--mirror')) return hit('push --force');
      if (has(f, 'd', '--delete', '--prune') || p.some((r) => r.startsWith(':'))) return hit('push --delete');
      if (p[0] && /:\/\/|^[^/]*@|^[/.~]/.test(p[0])) return hit('push to an address (sends the repository)');
      return p.some((r) => r.startsWith('+')) ? hit('push +refspec') : undefined;
    case 'checkout':
    case 'switch': {
      // `-bNAME`, `-qcNAME`: what follows b/B/c/C is the branch name, not more flags.
      const g = parseFlags(rest.map((a) => (/^-[a-zA-Z]*[bBcC]./.test(a.text) ? { ...a, text: a.text.replace(/([bBcC]).*/, '$1') } : a)));
      if (has(g, 'fpm', '--force', '--discard-changes', '--ours', '--theirs', '--patch', '--pathspec-from-file', '--merge'))
        return hit(`${sub} --force`);
      // `checkout REV PATH…`, `checkout -- PATH`, `checkout file.txt`: the files are overwritten.
      const ops = parseFlags(rest, CHECKOUT_VALUES).positionals.map((a) => a.text);
      if (rest.some((a) => a.text === '--' || a.glob || a.dynamic) || ops.length > 1 || ops.some((r) => PATHLIKE.test(r)))
        return hit(`${sub} of paths (overwrites files)`);
      return g.short.has('B') || g.short.has('C') ? hit(`${sub} -B (resets a branch)`) : undefined;
    }
    case 'restore':
      return has(f, 'S', '--staged') && !has(f, 'W', '--worktree') ? undefined : hit('restore');
    case 'stash':
      // push/save (-u, -a too) take work out of the tree, drop/clear delete it; pop/apply keep it on conflict.
      return ['list', 'show', 'create', 'pop', 'apply', 'branch'].includes(p[0] ?? '') ? undefined : hit(`stash ${p[0] ?? 'push'}`);
    case 'branch':
      if (f.short.has('D') || (has(f, 'd', '--delete') && has(f, 'f', '--force'))) return hit('branch -D');
      return f.short.has('M') || f.short.has('C') || (has(f, 'f', '--force') && p.length > 0) ? hit('branch --force') : undefined;
    case 'tag':
      return has(f, 'd', '--delete') || has(f, 'f', '--force') ? hit('tag -d') : undefined;
    case 'rebase':
      return hasLong(f, '--abort', '--quit', '--show-current-patch') ? undefined : hit('rebase (rewrites history)');
    case 'commit':
      return hasLong(f, '--amend') ? hit('commit --amend (rewrites history)') : undefined;
    case 'filter-branch':
    case 'filter-repo':
    case 'difftool':
    case 'mergetool':
      return hit(sub);
    case 'bisect':
      return p[0] === 'run' ? ctx.runArgv(f.positionals.slice(1)) : undefined;
    case 'reflog':
      return p[0] === 'expire' || p[0] === 'delete' ? hit(`reflog ${p[0]}`) : undefined;
    case 'gc':
      return f.long.some((l) => /^--prune=(now|all)$/.test(l)) ? hit('gc --prune=now') : undefined;
    case 'update-ref':
    case 'update-index':
    case 'symbolic-ref':
    case 'replace':
      return hit(`${sub} (rewrites refs or the index)`);
    case 'rm':
    case 'mv':
      return has(f, 'n', '--dry-run') ? undefined : hit(`${sub} (deletes or moves files)`);
    case 'sparse-checkout':
      return p[0] === 'list' || p[0] === 'check-rules' ? undefined : hit('sparse-checkout (removes files from the tree)');
    case 'prune':
      return has(f, 'n', '--dry-run') ? undefined : hit('prune (deletes unreachable commits)');
    case 'read-tree':
      return has(f, 'n', '--dry-run') ? undefined : hit('read-tree (rewrites the index and files)');
    case 'checkout-index':
      return has(f, 'fa', '--force', '--all') ? hit('checkout-index -f (overwrites files)') : undefined;
    case 'apply':
      return hasLong(f, '--check', '--stat', '--numstat', '--summary') && !hasLong(f, '--apply', '--index', '--cached')
        ? undefined
        : hit('apply (rewrites files)');
    case 'am':
      return hasLong(f, '--abort', '--quit', '--show-current-patch') ? undefined : hit('am (rewrites files)');
    case 'submodule':
      return p[0] === 'deinit' || (p[0] === 'update' && has(f, 'f', '--force')) ? hit(`submodule ${p[0]}`) : undefined;
    case 'worktree':
      return p[0] === 'remove' && has(f, 'f', '--force') ? hit('worktree remove --force') : undefined;
  }
};
