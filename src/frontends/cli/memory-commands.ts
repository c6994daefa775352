/** `aish memory …` as commander subcommands; each loads ./memory only when it runs. */
import { Option, type Command } from 'commander';
import type { Setup } from '../../config/setup';
import { UsageError } from '../../util/errors';

export type WithSetup = <A extends unknown[]>(fn: (s: Setup, ...args: A) => unknown) => (...args: A) => Promise<void>;

const impl = () => import('./memory');

export function registerMemoryCommands(program: Command, withSetup: WithSetup, rootYes: () => boolean): Command {
  const memory = program.command('memory').description('manage cross-session memory without the REPL').exitOverride();

  memory
    .command('list')
    .description('active items, newest first (* = in [background] here); unreadable lines go to stderr')
    .option('--json', 'print a JSON array of the active items as stored')
    .option('--here', 'only the items that apply in this directory')
    .action(
      withSetup(async (s, opts: { json?: boolean; here?: boolean }) =>
        opts.json ? (await import('./memory-json')).memoryListJson(s, opts.here === true) : (await impl()).memoryList(s, opts),
      ),
    );
  memory
    .command('add')
    .description('append an item: KIND is fact, pref or context')
    .option('--project', 'only for this git repository (or this directory outside git)')
    .option('--private', 'never leaves this machine (memory sync skips it)')
    .argument('<kind>', 'fact | pref | context')
    .argument('<text...>', 'what to remember')
    .action(
      withSetup(async (s, kind: string, text: string[], opts: { project?: boolean; private?: boolean }) =>
        (await import('./memory-add')).memoryAdd(s, kind, text, opts),
      ),
    );
  memory
    .command('forget')
    .description('forget one item (appends a tombstone)')
    .argument('<id>', 'item id, from aish memory list')
    .action(withSetup(async (s, id: string) => (await impl()).memoryForget(s, id)));
  memory
    .command('edit')
    .description("replace an item's text (new item + tombstone of the old one); '(keys: a, b)' at the end sets its search words")
    .argument('<id>', 'item id')
    .argument('<text...>', 'the new text')
    .action(withSetup(async (s, id: string, text: string[]) => (await impl()).memoryEdit(s, id, text)));
  for (const on of [true, false]) {
    memory
      .command(on ? 'pin' : 'unpin')
      .description(on ? 'always put an item first in [background]' : 'undo aish memory pin')
      .argument('<id>', 'item id')
      .action(withSetup(async (s, id: string) => (await impl()).memoryPin(s, id, on)));
  }
  memory
    .command('plan')
    .description(
      'what would be sent for TEXT (default: the last prompt of the latest session): [background], [recall] with scores, and what is left out and why',
    )
    .option('--json', 'print {"background":[…],"recall":[…],"left_out":[…]}')
    .argument('[text...]', 'the message to plan for')
    .action(withSetup(async (s, text: string[], opts: { json?: boolean }) => (await impl()).memoryPlan(s, text, opts)));
  memory
    .command('search')
    .description('items ranked for TEXT (every project), with ids and scores')
    .option('--json', 'print a JSON array, best first')
    .option('--limit <n>', 'at most this many (default 20)')
    .argument('<text...>', 'what to look for')
    .action(withSetup(async (s, text: string[], opts: { json?: boolean; limit?: string }) => (await impl()).memorySearch(s, text, opts)));
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
    .description('in a terminal: conflicting edits first (keep which? [1/2/b/s]), then the inbox of proposed items: keep? [y/n/e/s]')
    .option('--json', 'print the pending candidates as a JSON array instead (no terminal needed)')
    .option(
      '--stale',
      'list stale items instead, one a line (no terminal needed): old, and never recalled lately or updated by a newer one',
    )
    .action(withSetup(async (s, opts: { json?: boolean; stale?: boolean }) => (await import('./memory-review')).memoryReview(s, opts)));
  memory
    .command('log')
    .description(
      'what arrived from elsewhere (sync, team, import, agents), newest first: when, from where, what it added, forgot, replaced',
    )
    .option('--json', 'print the receipts as a JSON array')
    .action(withSetup(async (s, opts: { json?: boolean }) => (await import('./memory-log')).memoryLog(s, opts.json === true)));
  memory
    .command('undo')
    .description('put back what an arrival forgot or replaced and forget what it added (syncs like any change)')
    .argument('<receipt>', 'receipt id (r12), from aish memory log')
    .action(withSetup(async (s, id: string) => (await import('./memory-log')).memoryUndo(s, id)));
  memory
    .command('sync')
    .description("sync with the git repository in memory.sync: send new items, receive the other machines' (see README)")
    .option('--dry-run', 'say what would be sent and received; write nothing')
    .option('--json', 'print the counts as JSON')
    .option('--yes', 'accept a sync that forgets many items without asking')
    .addOption(new Option('--background').hideHelp())
    .action(
      withSetup(async (s, opts: { dryRun?: boolean; json?: boolean; yes?: boolean; background?: boolean }) =>
        (await import('./memory-sync')).memorySync(s, { ...opts, yes: opts.yes === true || rootYes() }),
      ),
    );
  memory
    .command('share')
    .description("write an item to this project's .aish/memory/<name>.jsonl for your team to commit (private items and secrets refused)")
    .argument('<id>', 'item id, from aish memory list')
    .action(withSetup(async (s, id: string) => (await import('./memory-team')).memoryShare(s, id)));
  memory
    .command('trust-project')
    .description("use this project's items here: this checkout is the project its git remote or .aish/project-id names")
    .option('--revoke', 'no longer: its project items stop applying here')
    .action(
      withSetup(async (s, opts: { revoke?: boolean }) => (await import('./memory-team')).memoryTrustProject(s, opts.revoke === true)),
    );
  memory
    .command('clear')
    .description('forget every item (needs --yes)')
    .option('--yes', 'confirm')
    // --yes is also a root option (for --norris); commander gives it to the root when both exist.
    .action(withSetup(async (s, opts: { yes?: boolean }) => (await impl()).memoryClear(s, { yes: opts.yes === true || rootYes() })));
  memory
    .command('compact')
    .description('rewrite the file without forgotten items and tombstones (atomic)')
    .action(withSetup(async (s) => (await impl()).memoryCompact(s)));
  memory
    .command('path')
    .description("print the memory file's path")
    .action(withSetup(async (s) => (await impl()).memoryPath(s)));
  return memory;
}
