/** `:help [COMMAND]`: every command on one line each, or one command's details and subcommands. */
import { UsageError } from '../util/errors';
import { command, rows, type MetaCommand, type SubCommand } from './types';

function synopsis(c: MetaCommand): string {
  const args = c.args ?? (c.subcommands ? c.subcommands.map((s) => s.name).join(' | ') : '');
  return `:${c.name}${args ? ` ${args}` : ''}`;
}

/**
 * `  :memory add KIND TEXT  remember …`, one row per subcommand. Not padded to the longest (65
 * columns for :memory): the front end wraps each row with a hanging indent at its width.
 */
function subcommandHelp(c: MetaCommand, subs: readonly SubCommand[]): string {
  return subs.map((s) => `  :${c.name} ${s.name}${s.args ? ` ${s.args}` : ''}  ${s.help.replace(/\n/g, ' ')}`).join('\n');
}

function details(c: MetaCommand): string {
  const more = c.help ?? (c.subcommands ? subcommandHelp(c, c.subcommands) : '');
  return [`${synopsis(c)} — ${c.summary}`, ...(more ? [more] : [])].join('\n');
}

export const helpCommand = command({
  needs: ['commands'],
  name: 'help',
  args: '[COMMAND]',
  summary: 'list every command; :help COMMAND for details',
  complete: ({ commands }, argv) => (argv.length === 0 ? commands.all().map((c) => c.name) : []),
  run: ({ commands, argv }) => {
    if (argv[0]) {
      const name = argv[0].replace(/^:/, '');
      const c = commands.find(name);
      if (!c) throw new UsageError(`no command :${name} — see :help`);
      return { output: [rows(details(c))] };
    }
    // Two spaces after each synopsis, no padding to the longest: long rows hang-wrap instead.
    const lines = commands.all().map((c) => `${synopsis(c)}  ${c.summary}${c.aliases?.length ? ` (also :${c.aliases.join(', :')})` : ''}`);
    lines.push(
      '!CMD  run a shell command here; its output goes to the model with your next prompt',
      '!!CMD  run a command with the whole terminal (editors and pagers get it automatically)',
      'TEXT  ask the model (Ctrl-C cancels the answer; Ctrl-C twice or Ctrl-D quits)',
    );
    return { output: [rows(lines.join('\n'))] };
  },
});
