/**
 * Whether one rule matches one command's words (quotes already removed). Allow rules match
 * strictly: the rule's words are the command's first words, in order, and an `exact` rule is the
 * whole command. Deny and ask rules match generously, so options do not walk around them:
 * `deny git push` also matches `git -C dir push` and `git --no-pager push` (options and an
 * option's value may sit between the rule's words), and an option cluster in a deny rule
 * (`deny rm -rf`) matches those letters given anywhere (`rm -r -f`, `rm -fr`). A word known only at
 * run time (`$x`, `$(…)`, a glob) may be anything: it gives "maybe" where a deny or ask rule needs a word.
 */
import type { CommandRule } from '../../config/rule-line';
import type { Arg } from '../safety/shell-parser';

export type Match = 'yes' | 'maybe' | 'no';

/** Where a program named by path is still the system's own (`/usr/bin/git` is `git`, `./git` is not). */
const SYSTEM_PROGRAM = /^\/(usr\/(local\/)?|opt\/homebrew\/)?s?bin\/[^/]+$/;
const SHORT_CLUSTER = /^-[A-Za-z0-9]+$/;

const unknown = (a: Arg): boolean => a.dynamic || a.glob;
const baseName = (text: string): string => (text.slice(text.lastIndexOf('/') + 1) || text).toLowerCase();

function programMatch(rule: CommandRule, first: Arg): Match {
  if (unknown(first)) return rule.decision === 'allow' ? 'no' : 'maybe';
  if (rule.decision === 'allow') {
    // An allow rule vouches for the program it names, not for a file of that name elsewhere.
    if (rule.path) return first.text === rule.path ? 'yes' : 'no';
    if (first.text.includes('/') && !SYSTEM_PROGRAM.test(first.text)) return 'no';
  }
  return baseName(first.text) === rule.words[0] ? 'yes' : 'no';
}

function strict(rule: CommandRule, argv: Arg[]): Match {
  if (argv.length < rule.words.length || (rule.exact && argv.length !== rule.words.length)) return 'no';
  for (let i = 1; i < rule.words.length; i++) if (unknown(argv[i]!) || argv[i]!.text !== rule.words[i]) return 'no';
  return 'yes';
}

/** Every letter of `-rf` among the command's short options, or `--force` (`--force=…`) given. */
function optionGiven(word: string, args: Arg[]): Match {
  const opts = args.filter((a) => !unknown(a) && a.text.startsWith('-'));
  if (args.some(unknown) && !opts.some((a) => a.text === word)) return 'maybe';
  if (opts.some((a) => a.text === word || (word.startsWith('--') && a.text.startsWith(`${word}=`)))) return 'yes';
  if (!SHORT_CLUSTER.test(word)) return 'no';
  const letters = new Set(opts.filter((a) => SHORT_CLUSTER.test(a.text)).flatMap((a) => [...a.text.slice(1)]));
  return [...word.slice(1)].every((c) => letters.has(c)) ? 'yes' : 'no';
}

/** `git -c alias.p=push p`: a subcommand named by the line itself may be any other one. */
function definesAlias(program: string, args: Arg[]): boolean {
  if (program !== 'git') return false;
  return (
    args.some((a, i) => /^(-c)?alias\./i.test(a.text) && (a.text.startsWith('-c') || args[i - 1]?.text === '-c')) ||
    args.some((a) => /^--config-env(=|$)/.test(a.text))
  );
}

function generous(rule: CommandRule, argv: Arg[]): Match {
  const args = argv.slice(1);
  if (rule.words.length > 1 && definesAlias(rule.words[0]!, args)) return 'maybe';
  const end = args.findIndex((a) => !unknown(a) && a.text === '--');
  const options = end < 0 ? args : args.slice(0, end);
  let result: Match = 'yes';
  for (const w of rule.words.slice(1).filter((w) => w.startsWith('-') && w !== '-')) {
    const m = optionGiven(w, options);
    if (m === 'no') return 'no';
    if (m === 'maybe') result = 'maybe';
  }
  const words = rule.words.slice(1).filter((w) => !w.startsWith('-') || w === '-');
  let i = 0;
  let afterOption = false;
  for (const w of words) {
    for (;;) {
      const a = args[i++];
      if (!a) return 'no';
      if (unknown(a)) {
        result = 'maybe';
        break;
      }
      if (a.text === w) break;
      if (a.text.startsWith('-') && a.text !== '-' && a.text !== '--') {
        afterOption = !a.text.includes('=');
        continue;
      }
      if (!afterOption) return 'no';
      afterOption = false; // the option's value
    }
    afterOption = false;
  }
  if (rule.exact && i < args.length) return 'no';
  return result;
}

export function matchRule(rule: CommandRule, argv: Arg[]): Match {
  const first = argv[0];
  if (!first) return 'no';
  const program = programMatch(rule, first);
  if (program === 'no') return 'no';
  const rest = rule.decision === 'allow' ? strict(rule, argv) : generous(rule, argv);
  return rest === 'no' ? 'no' : program === 'maybe' || rest === 'maybe' ? 'maybe' : 'yes';
}
