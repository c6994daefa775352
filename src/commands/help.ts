/** `:help [COMMAND]`: every command on one line each, or one command's details and subcommands. */
import { UsageError } from '../util/errors';
import { info, type MetaCommand, type SubCommand } from './types';

export function synopsis(c: MetaCommand): string {
  const args = c.args ?? (c.subcommands ? c.subcommands.map((s) => s.name).join('|') : '');
  return `:${c.name}${args ? ` ${args}` : ''}`;
}

/** `  :memory add KIND TEXT   remember …`, continuation lines indented under the text. */
export function subcommandHelp(c: MetaCommand, subs: readonly SubCommand[]): string {
  const heads = subs.map((s) => `  :${c.name} ${s.name}${s.args ? ` ${s.args}` : ''}`);
  const w = Math.max(...heads.map((h) => h.length)) + 2;
  return subs
    .map((s, i) => {
      const [first = '', ...more] = s.help.split('\n');
      return [heads[i]!.padEnd(w) + first, ...more.map((l) => ' '.repeat(w) + l)].join('\n');
    })
    .join('\n');
}

function details(c: MetaCommand): string {
  const more = c.help ?? (c.subcommands ? subcommandHelp(c, c.subcommands) : '');
  return [`${synopsis(c)} — ${c.summary}`, ...(more ? [more] : [])].join('\n');
}

export const helpCommand: MetaCommand<'commands'> = {
  name: 'help',
  args: '[COMMAND]',
  summary: 'list every command; :help COMMAND for details',
  complete: ({ commands }) => commands.all().map((c) => c.name),
  run: ({ commands, argv }) => {
    if (argv[0]) {
      const name = argv[0].replace(/^:/, '');
      const c = commands.find(name);
      if (!c) throw new UsageError(`no command :${name} — see :help`);
      return { output: [info(details(c))] };
    }
    const rows = commands.all().map((c) => [synopsis(c), c.summary + (c.aliases?.length ? ` (also :${c.aliases.join(', :')})` : '')] as const);
    const w = Math.max(...rows.map(([a]) => a.length));
    const lines = rows.map(([a, b]) => `${a.padEnd(w)}  ${b}`);
    lines.push(
      `${'!CMD'.padEnd(w)}  run a shell command here; its output goes to the model with your next prompt`,
      `${'!!CMD'.padEnd(w)}  run a command with the whole terminal (editors and pagers get it automatically)`,
      `${'TEXT'.padEnd(w)}  ask the model (Ctrl-C cancels the answer; Ctrl-C twice or Ctrl-D quits)`,
    );
    return { output: [info(lines.join('\n'))] };
  },
};
