/** What `:rules`, `:trust` and `aish rules …` print: the rules in force, one decision, a project file. */
import { tildify } from '../../util/paths';
import type { ActiveRules, RuleBook } from './book';
import type { RuleVerdict } from './check';
import type { ProjectRules } from './project';
import { revokeProject, trustProject } from './trust';

/** `aish rules check` / `:rules check`: the decision, the rule, the simple command it matched. */
function verdictLines(line: string, v: RuleVerdict): string[] {
  const lines = [`${v.decision ?? 'no rule'}: ${line}`];
  if (v.rule) lines.push(`  rule:    ${v.rule.text}   (${v.rule.source})`);
  if (v.command !== undefined) {
    const via = v.matched !== undefined && v.matched !== v.command ? `  → ${v.matched}` : '';
    lines.push(`  matched: ${v.command}${via}`);
  }
  lines.push(`  ${v.decision === null ? 'so the usual checks decide' : 'why'}: ${v.reason}`);
  return lines;
}

/** The check, and a note when the project has rules that were not used (untrusted or changed). */
export async function checkReport(book: RuleBook, line: string): Promise<{ verdict: RuleVerdict; lines: string[] }> {
  const verdict = await book.check(line);
  const project = book.project();
  const note = project && project.trust !== 'trusted' ? [projectNote(project)] : [];
  return { verdict, lines: [...verdictLines(line, verdict), ...note] };
}

export function verdictJson(line: string, v: RuleVerdict): Record<string, unknown> {
  return {
    command: line,
    decision: v.decision,
    rule: v.rule?.text ?? null,
    source: v.rule?.source ?? null,
    matched: v.command ?? null,
    matchedAs: v.matched ?? null,
    reason: v.reason,
    simpleCommands: v.commands.map((c) => c.text),
  };
}

/** One line on the project's rules file: how many rules, and whether they are in force. */
export function projectNote(p: ProjectRules): string {
  const n = `${p.rules.length} rule${p.rules.length === 1 ? '' : 's'}`;
  if (p.trust === 'trusted') return `${tildify(p.file)}: ${n}, trusted`;
  const state = p.trust === 'changed' ? 'changed since you trusted it' : 'not trusted';
  return `${tildify(p.file)}: ${n}, ${state}, so not used — :trust (or aish rules trust) shows and trusts them`;
}

/** `:rules` / `aish rules list`: every rule in force, in order, with where it came from. */
export function listLines(a: ActiveRules): string[] {
  const lines = a.rules.map((r) => `${r.text.padEnd(36)} ${r.source}`);
  if (lines.length === 0) lines.push('no command rules (safety.rules in the config, or a trusted .aish/rules; see docs/rules.md)');
  if (a.project) lines.push(projectNote(a.project), ...a.project.errors);
  return lines;
}

export function listJson(a: ActiveRules): Record<string, unknown> {
  return {
    rules: a.rules.map((r) => ({ rule: r.text, decision: r.decision, source: r.source })),
    project: a.project && {
      file: a.project.file,
      dir: a.project.dir,
      trust: a.project.trust,
      rules: a.project.rules.length,
      errors: a.project.errors,
    },
  };
}

export type TrustStep = { lines: string[]; ready: false } | { lines: string[]; ready: true; project: ProjectRules };

/** What `:trust` would trust: the file, its directory, every rule; not ready when there is nothing to trust. */
export function trustPreview(book: RuleBook): TrustStep {
  const p = book.project();
  if (!p) return { lines: ['no .aish/rules here or in a directory above (up to your home directory)'], ready: false };
  if (!book.dataDir) return { lines: ['no data directory: trust cannot be recorded'], ready: false };
  if (p.errors.length > 0) return { lines: [...p.errors, `fix ${tildify(p.file)} first; nothing was trusted`], ready: false };
  const head =
    p.trust === 'trusted'
      ? `${tildify(p.file)} is already trusted for ${tildify(p.dir)}:`
      : `${tildify(p.file)} (${p.trust === 'changed' ? 'changed since you trusted it' : 'not trusted yet'}) would apply to commands in ${tildify(p.dir)}:`;
  const lines = [head, ...(p.rules.length ? p.rules.map((r) => `  ${r.text}`) : ['  (no rules in it)'])];
  return p.trust === 'trusted' ? { lines, ready: false } : { lines, ready: true, project: p };
}

export function trustNow(book: RuleBook, p: ProjectRules): string {
  trustProject(book.dataDir!, p.dir, p.sha256);
  return `trusted ${tildify(p.file)} as it is now (an edit needs :trust again)`;
}

export function revokeNow(book: RuleBook): string {
  const p = book.project();
  if (!p) return 'no .aish/rules here or in a directory above — nothing to revoke';
  if (!book.dataDir || !revokeProject(book.dataDir, p.dir)) return `${tildify(p.dir)} was not trusted`;
  return `no longer trusted: ${tildify(p.file)} (its rules are not used)`;
}
