/**
 * `aish memory …` as commander subcommands: the verbs shared with `:memory` come from their one
 * table (commands/memory-verbs.ts, through ./memory-door.ts); export, import and the review walk
 * are the command line's own, each loaded only when it runs.
 */
import type { Command } from 'commander';
import { UsageError } from '../../util/errors';
import { registerVerb, type VerbTable, type WithSetup } from './memory-door';

/** `table`: the verbs, or null when the words name no memory command (program.ts). */
export function registerMemoryCommands(program: Command, table: VerbTable | null, withSetup: WithSetup, rootYes: () => boolean): Command {
  const memory = program.command('memory').description('manage cross-session memory without the REPL').exitOverride();

  // The verbs both doors share, from their one table (commands/memory-verbs.ts).
  if (table) for (const v of table.verbs) if (v.door !== 'repl') registerVerb(memory, v, table.run, withSetup, rootYes);
  memory
    .command('export')
    .description('write the active items (with scope, pins, tags, provenance) to FILE or stdout')
    .option(
      '--format <format>',
      "jsonl (default), md (grouped by kind and scope) or agents-md (this project's items as an AGENTS.md section)",
    )
    .argument('[file]', 'where to write (default: stdout); agents-md replaces only its own section of FILE')
    .action(
      withSetup(async (s, file: string | undefined, opts: { format?: string }) =>
        opts.format === 'agents-md'
          ? (await import('./memory-porting')).memoryExportAgentsMd(s, file)
          : (await import('./memory-transfer')).memoryExport(s, file, opts),
      ),
    );
  memory
    .command('import')
    .description(
      "add the items of an export (JSONL or Markdown) or of another memory.jsonl, with fresh ids; or, with --from, of another tool's memory files; duplicates are skipped",
    )
    .option('--dry-run', 'list what would be imported, write nothing')
    .option(
      '--from <tool>',
      "claude, gemini, codex, agents or antigravity: read that tool's memory files (default: this project's and your own)",
    )
    .argument('[path]', 'the file to import; with --from, a file or directory of that tool')
    .action(
      withSetup(async (s, file: string | undefined, opts: { dryRun?: boolean; from?: string }) => {
        if (opts.from !== undefined) return (await import('./memory-porting')).memoryImportFrom(s, opts.from, file, opts);
        if (file === undefined)
          throw new UsageError('name the file to import, or a tool: aish memory import --from claude|gemini|codex|agents|antigravity');
        return (await import('./memory-transfer')).memoryImport(s, file, opts);
      }),
    );
  memory
    .command('review')
    .description(
      'in a terminal: conflicting edits first (keep which? [1/2/b/s]), then the inbox of proposed items: keep? [y/n/e/s]; --stale: old items never recalled lately',
    )
    .option('--json', 'print the pending candidates as a JSON array instead (no terminal needed)')
    .option(
      '--stale',
      'list stale items instead, one a line (no terminal needed): old, and never recalled lately or updated by a newer one',
    )
    .action(withSetup(async (s, opts: { json?: boolean; stale?: boolean }) => (await import('./memory-review')).memoryReview(s, opts)));
  return memory;
}
