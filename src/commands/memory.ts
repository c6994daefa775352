/**
 * `:remember TEXT` and `:memory …`: the subcommands are the memory verbs' table (memory-verbs.ts,
 * shared with `aish memory`) and the REPL's own walks (summarize, review), run over the memory
 * service commands are given (memory/service.ts).
 */
import { confirm, type OutputItem } from '../core/host';
import { jsonText, parseText, replArgs, type Door, type Line, type Shown } from './memory-door';
import { AishError } from '../util/errors';
import { reviewSubcommand } from './memory-review';
import { summarizeSubcommand } from './memory-summarize';
import { MEMORY_VERBS } from './memory-verbs';
import { command, info, rows, warn, type CommandResult, type CommandServices, type SubCommand } from './types';

type Ctx = Pick<CommandServices, 'memory' | 'ui'> & Partial<Pick<CommandServices, 'chat'>>;

const item = (l: Line): OutputItem => (l.kind === 'warn' ? warn(l.text) : l.kind === 'rows' ? rows(l.text) : info(l.text));

function replDoor({ memory, ui, chat }: Ctx): Door {
  const pageLines = ui.pageLines?.();
  return {
    repl: true,
    cmd: ':memory',
    path: memory.path,
    interactive: ui.interactive === true,
    ask: (q) => confirm(ui, q),
    print: (l) => ui.print(item(l)),
    lastPrompt: () => chat?.lastPrompt() ?? null,
    ...(pageLines && { pageLines }),
  };
}

/** What a verb showed; its failure after them, as `✗`. */
function present(s: Shown, ui: Ctx['ui']): CommandResult {
  const output = s.lines.map(item);
  if (s.json) output.push(info(jsonText(s.json)));
  if (!s.error) return { output };
  for (const o of output) ui.print(o);
  throw new AishError(s.error);
}

const ADD = MEMORY_VERBS.find((v) => v.name === 'add')!;
const verbs = MEMORY_VERBS.filter((v) => v.door !== 'cli');
const at = verbs.findIndex((v) => v.name === 'clear') + 1;

const subcommands: SubCommand<'memory' | 'ui' | 'models' | 'chat' | 'run' | 'sessions'>[] = [
  ...verbs.slice(0, at),
  summarizeSubcommand,
  reviewSubcommand,
  ...verbs.slice(at),
].map((v) =>
  'exec' in v
    ? {
        name: v.name,
        ...(v.args && { args: v.args }),
        help: v.help,
        complete: ({ memory }, argv, word) => v.complete?.(memory, argv, word) ?? [],
        run: async (ctx) => present(await v.exec(ctx.memory, replArgs(v, ctx.rest), replDoor(ctx)), ctx.ui),
      }
    : v,
);

export const rememberCommand = command({
  needs: ['memory', 'ui'],
  name: 'remember',
  args: '[--project] [--private] TEXT',
  summary: 'remember a fact across sessions (:memory add fact TEXT); --project: for this repository only; --private: never synced',
  run: async (ctx) => {
    const a = replArgs({ ...ADD, params: ADD.params.slice(1) }, ctx.rest);
    parseText(a.text, 'usage: :remember [--project] [--private] TEXT');
    return present(await ADD.exec(ctx.memory, { ...a, words: ['fact'] }, replDoor(ctx)), ctx.ui);
  },
});

export const memoryCommand = command({
  needs: ['memory', 'ui', 'models', 'chat', 'run', 'sessions'],
  name: 'memory',
  summary: 'manage cross-session memory (add KIND TEXT, forget ID, pin ID, plan, search TEXT, …)',
  subcommands,
  defaultSub: 'list',
});
