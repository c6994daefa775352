/** :help, :quit, :clear, :history, :cd */
import { formatHistory } from './format-history';
import { UsageError } from '../util/errors';
import { allCommands, findCommand } from './registry';
import { info, type MetaCommand } from './types';

export const coreCommands: MetaCommand[] = [
  {
    name: 'help',
    args: '[COMMAND]',
    summary: 'list every command; :help COMMAND for details',
    complete: () => allCommands().map((c) => c.name),
    run: ({ argv }) => {
      if (argv[0]) {
        const c = findCommand(argv[0].replace(/^:/, ''));
        if (!c) throw new UsageError(`no command :${argv[0].replace(/^:/, '')} — see :help`);
        return { output: [info([`:${c.name}${c.args ? ` ${c.args}` : ''} — ${c.summary}`, ...(c.help ? [c.help] : [])].join('\n'))] };
      }
      const rows = allCommands().map((c) => [`:${c.name}${c.args ? ` ${c.args}` : ''}`, c.summary + (c.aliases?.length ? ` (also :${c.aliases.join(', :')})` : '')] as const);
      const w = Math.max(...rows.map(([a]) => a.length));
      const lines = rows.map(([a, b]) => `${a.padEnd(w)}  ${b}`);
      lines.push(
        `${'!CMD'.padEnd(w)}  run a shell command here; its output goes to the model with your next prompt`,
        `${'!!CMD'.padEnd(w)}  run a command with the whole terminal (editors and pagers get it automatically)`,
        `${'TEXT'.padEnd(w)}  ask the model (Ctrl-C cancels the answer; Ctrl-C twice or Ctrl-D quits)`,
      );
      return { output: [info(lines.join('\n'))] };
    },
  },
  {
    name: 'quit',
    aliases: ['q', 'exit'],
    summary: 'leave aish',
    run: () => ({ quit: true }),
  },
  {
    name: 'clear',
    summary: 'start a new conversation (memory is kept)',
    run: ({ engine }) => {
      engine.newConversation();
      return { output: [info('new conversation')] };
    },
  },
  {
    name: 'history',
    args: '[--json]',
    summary: 'the exact messages the model would get next, system prompt included',
    complete: () => ['--json'],
    run: ({ engine, argv }) => {
      const msgs = engine.requestMessages();
      return { output: [info(argv[0] === '--json' ? JSON.stringify(msgs, null, 2) : formatHistory(msgs))] };
    },
  },
  {
    name: 'cd',
    args: 'DIR',
    summary: "change aish's directory (also !cd DIR)",
    run: ({ engine, rest }) => ({ output: [info(engine.changeDir(rest))] }),
  },
];
