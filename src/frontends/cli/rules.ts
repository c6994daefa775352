/** `aish rules list|check|trust`: the command rules in force, what they decide for a command, and trusting a project's file. */
import { readFileSync } from 'node:fs';
import type { Setup } from '../../config/setup';
import { RuleBook } from '../../tools/rules/book';
import { checkReport, listJson, listLines, revokeNow, trustNow, trustPreview, verdictJson } from '../../tools/rules/report';
import { UsageError } from '../../util/errors';
import { out, outJson } from './output';

/** Exit status of `aish rules check`: scripts can tell the three decisions apart. */
export const CHECK_EXIT = { allow: 0, none: 0, ask: 3, deny: 4 } as const;

const book = (s: Setup): RuleBook => new RuleBook(() => s.config.safety.rules, s.paths.dataDir);

export function rulesList(s: Setup, opts: { json?: boolean }): void {
  const active = book(s).active();
  if (opts.json) outJson(listJson(active));
  else for (const l of listLines(active)) out(l);
}

export async function rulesCheck(s: Setup, words: string[], opts: { json?: boolean }): Promise<number> {
  if (words.length === 1 && words[0] === '-') return checkEach(s, readFileSync(0, 'utf8'), opts);
  const line = words.join(' ');
  if (!line.trim()) throw new UsageError('usage: aish rules check "CMD"');
  const { verdict, lines } = await checkReport(book(s), line);
  if (opts.json) outJson(verdictJson(line, verdict));
  else for (const l of lines) out(l);
  return CHECK_EXIT[verdict.decision ?? 'none'];
}

/**
 * `aish rules check -`: each command read from stdin (separated by NUL when there is one, else one
 * per line), one report each (`--json`: one JSON object per line); the exit status is the strictest.
 */
async function checkEach(s: Setup, input: string, opts: { json?: boolean }): Promise<number> {
  const commands = input.split(input.includes('\0') ? '\0' : '\n').filter((c) => c.trim());
  if (commands.length === 0) throw new UsageError('usage: aish rules check - < FILE (one command per line, or NUL-separated)');
  const b = book(s);
  let exit = 0;
  for (const [i, line] of commands.entries()) {
    const { verdict, lines } = await checkReport(b, line);
    if (opts.json) out(JSON.stringify(verdictJson(line, verdict)));
    else for (const l of i > 0 ? ['', ...lines] : lines) out(l);
    exit = Math.max(exit, CHECK_EXIT[verdict.decision ?? 'none']);
  }
  return exit;
}

export function rulesTrust(s: Setup, opts: { revoke?: boolean; yes?: boolean }): void {
  const b = book(s);
  if (opts.revoke) return out(revokeNow(b));
  const step = trustPreview(b);
  for (const l of step.lines) out(l);
  if (!step.ready) return;
  if (!opts.yes) throw new UsageError('nothing trusted yet — run again with --yes to trust these rules');
  out(trustNow(b, step.project));
}
