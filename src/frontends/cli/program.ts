/**
 * The command line (commander), for any start with arguments (plain `aish` skips it: main.ts).
 * Kept light: commander plus what the chosen command needs; every heavy module is imported on first use.
 */
import { Command, CommanderError, Option } from 'commander';
import { version } from '../../../package.json';
import { setup, type GlobalFlags } from '../../config/setup';
import { closest } from '../../util/suggest';
import { reportFailure } from './failure';
import { registerMemoryCommands } from './memory-commands';
import type { VerbTable } from './memory-door';
import { startSession, type RootOptions } from './start-session';

/** Set by actions that finish with a status other than 0 (e.g. `-p` when the model fails). */
let actionExitCode = 0;

/** Commander's message as one line: its `(Did you mean …?)` goes on the same line, lower case. */
function oneLineError(str: string): string {
  return str
    .trim()
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\(Did you mean/g, '(did you mean');
}

/**
 * Words after `aish` that are no command are most likely a question: say how to ask it — and,
 * when the first word is a command misspelt (`aish memroy list`), which one.
 */
function rootUsageError(str: string, args: readonly string[], commands: readonly string[]): string {
  const message = oneLineError(str);
  if (!/^too many arguments\./.test(message) || args.length === 0) return message;
  const words = args.join(' ');
  const quoted = `"${words.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
  // A short word takes one slip at most: `edit my files` is a question, not `init`.
  const first = args[0]!;
  const near = first.length >= 3 ? closest(first, commands, first.length <= 4 ? 1 : 2) : undefined;
  return `unknown command ${JSON.stringify(args[0])}${near ? ` (did you mean ${near}?)` : ''}; to ask once: aish -p ${quoted}`;
}

function buildProgram(verbs: VerbTable | null): Command {
  const program = new Command('aish')
    .description('AI-augmented conversational shell with cross-session memory')
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--config <path>', 'config file (default $AISH_CONFIG or ~/.config/aish/config.ts)')
    .option('--data-dir <dir>', 'data directory (default $AISH_DATA_DIR or ~/.local/share/aish)')
    .option('--no-memory', 'do not inject memory into the system prompt')
    .addOption(new Option('-p, --prompt <text>', 'one-shot: stream the answer to stdout and exit (piped stdin is attached)'))
    .addOption(new Option('-m, --model <preset>', 'start with this model preset'))
    .addOption(new Option('-c, --continue', 'continue the latest session'))
    .addOption(new Option('--resume <name>', 'continue a saved or recent session'))
    .addOption(new Option('--norris <goal>', 'work on GOAL without asking anyone; destructive steps are refused unless --yes'))
    .addOption(new Option('--yes', 'with --norris: allow destructive steps'))
    .addOption(
      new Option(
        '-e, --suggest <text>',
        'a shell command for TEXT to review (execute, revise, describe, copy); stdout not a terminal: print only the command',
      ),
    )
    .exitOverride()
    .configureOutput({
      outputError: (str, write) =>
        write(
          `aish: ${rootUsageError(
            str,
            program.args,
            program.commands.map((c) => c.name()),
          )} (see aish --help)\n`,
        ),
    })
    .action(async () => {
      const o = program.opts<RootOptions>();
      actionExitCode = await startSession(await setup(o), o);
    });

  const global = (): GlobalFlags => program.opts<GlobalFlags>();
  const withSetup =
    <A extends unknown[]>(fn: (s: Awaited<ReturnType<typeof setup>>, ...args: A) => unknown) =>
    async (...args: A) => {
      await fn(await setup(global()), ...args);
    };

  const memory = registerMemoryCommands(program, verbs, withSetup, () => program.opts<RootOptions>().yes === true);

  const sessions = program.command('sessions').description('saved and recent sessions; search their turns').exitOverride();
  sessions
    .command('list')
    .description('saved and recent sessions, newest first')
    .option('--json', 'print a JSON array')
    .option('--all', 'also one-shot runs (-p, --norris) and sessions whose calls all failed')
    .action(withSetup(async (s, opts: { json?: boolean; all?: boolean }) => (await import('./sessions')).sessionsList(s, opts)));
  sessions
    .command('search')
    .description('turns of past sessions that mention TEXT: most words matched first, then newest')
    .argument('<text...>', 'words to look for ("databases" also finds "database"; common words are skipped)')
    .option('--json', 'print a JSON array of {session, path, ts, role, snippet, score}')
    .option('--limit <n>', 'at most this many turns (default 20)')
    .action(
      withSetup(async (s, text: string[], opts: { json?: boolean; limit?: string }) =>
        (await import('./sessions')).sessionsSearch(s, text, opts),
      ),
    );

  program
    .command('init')
    .description("print a snippet for your shell's rc file: Alt-E replaces the command line with the command aish suggests for it")
    .argument('<shell>', 'bash, zsh or fish')
    .action(async (shell: string) => {
      process.stdout.write((await import('./shell-init')).shellInit(shell));
    });
  sessions
    .command('export')
    .description('a session as Markdown (tool calls folded, !cmd output as code) or its turns as JSON')
    .argument('<name>', 'session name or id (see aish sessions list)')
    .argument('[file]', 'write here instead of stdout (an existing file needs --force)')
    .option('--format <format>', 'md or json (default md)')
    .option('--force', 'replace FILE if it exists')
    .option('--raw', 'keep secrets as typed (by default API keys, passwords and tokens are [redacted])')
    .action(
      withSetup(async (s, name: string, file: string | undefined, opts: { format?: string; force?: boolean; raw?: boolean }) =>
        (await import('./sessions')).sessionsExport(s, name, file, opts),
      ),
    );

  // The detached capture a quitting aish starts (see frontends/capture-handoff.ts); not for users.
  program
    .command('__capture', { hidden: true })
    .requiredOption('--session <path>')
    .option('--preset <name>')
    .action(
      withSetup(async (s, opts: { session: string; preset?: string }) => {
        actionExitCode = await (await import('./capture-child')).runCaptureChild(s, opts);
      }),
    );

  const checkpoints = program
    .command('checkpoints')
    .description("this directory's snapshots, taken before steps that may write")
    .exitOverride();
  checkpoints
    .command('list')
    .description('newest first: position, id, age, step, command')
    .option('--json', 'print a JSON array')
    .action(withSetup(async (s, opts: { json?: boolean }) => (await import('./checkpoints')).checkpointsList(s, opts)));
  checkpoints
    .command('restore')
    .description('put the directory back as before a checkpoint (default: the newest; needs --yes)')
    .argument('[id]', 'checkpoint id, or position in the list (1 = newest)')
    .option('--yes', 'confirm')
    .action(
      withSetup(async (s, id: string | undefined, opts: { yes?: boolean }) =>
        (await import('./checkpoints')).checkpointsRestore(s, id, { yes: opts.yes === true || program.opts<RootOptions>().yes === true }),
      ),
    );

  const mcp = program
    .command('mcp')
    .description('serve your memory to other agents (Claude Code, Codex, Antigravity, Cursor) over MCP on stdio; see README')
    .option('--print-config <client>', 'print the set-up snippet for claude, codex, antigravity or cursor, and exit')
    .action(async (opts: { printConfig?: string }) => {
      if (opts.printConfig !== undefined)
        return void process.stdout.write((await import('../mcp/print-config')).printConfig(opts.printConfig));
      const s = await setup(global());
      (await import('./memory-store')).memoryOn(s);
      await (await import('../mcp/server')).runMcpServer(s);
    });

  const rules = program.command('rules').description('command rules (allow, ask, deny): list them, check a command').exitOverride();
  rules
    .command('list')
    .description('the rules in force, in order, and where each came from')
    .option('--json', 'print JSON')
    .action(withSetup(async (s, opts: { json?: boolean }) => (await import('./rules')).rulesList(s, opts)));
  rules
    .command('check')
    .description('what the rules decide for CMD and which rule decides (exit 0 allow or no rule, 3 ask, 4 deny)')
    .argument('<cmd...>', 'the command line (quote it, or put options such as --json before it)')
    .option('--json', 'print JSON')
    // `aish rules check rm -rf x`: the command's own options are its words, not aish's.
    .allowUnknownOption()
    .action(
      withSetup(async (s, cmd: string[], opts: { json?: boolean }) => {
        actionExitCode = await (await import('./rules')).rulesCheck(s, cmd, opts);
      }),
    );
  rules
    .command('trust')
    .description("use this project's .aish/rules: shows them; --yes trusts them as they are now")
    .option('--yes', 'confirm')
    .option('--revoke', 'stop using them')
    .action(
      withSetup(async (s, opts: { yes?: boolean; revoke?: boolean }) =>
        (await import('./rules')).rulesTrust(s, { ...opts, yes: opts.yes === true || program.opts<RootOptions>().yes === true }),
      ),
    );

  // Each usage error points at the help of the command that was mistyped (`aish memory bogus`:
  // aish memory --help), not at aish --help.
  for (const c of [
    memory,
    sessions,
    checkpoints,
    rules,
    mcp,
    ...memory.commands,
    ...sessions.commands,
    ...checkpoints.commands,
    ...rules.commands,
  ]) {
    const name = [c.parent?.parent ? c.parent.name() : '', c.name()].filter(Boolean).join(' ');
    c.exitOverride().configureOutput({
      outputError: (str, write) => write(`aish: ${oneLineError(str)} (see aish ${name} --help)\n`),
    });
  }
  return program;
}

export async function main(argv: string[]): Promise<number> {
  // Only `aish memory …` (or `aish help memory`) needs the memory verbs' table, and with it the
  // secret rules `add` checks against and the memory core: any other command starts without them.
  const verbs = argv.includes('memory') ? (await import('./memory-table')).verbTable : null;
  const program = buildProgram(verbs);
  // `aish help` and `aish help memory [list]`, as git and npm take them: commander gives a root with
  // an action of its own no help command. `aish help me with …` stays a question (rootUsageError).
  const named = argv.length === 1 || program.commands.some((c) => c.name() === argv[1]);
  if (argv[0] === 'help' && argv.length <= 3 && named) argv = [...argv.slice(1), '--help'];
  try {
    await program.parseAsync(argv, { from: 'user' });
    return actionExitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version are "errors" to commander; usage mistakes exit 2.
      return err.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(err);
  }
}
