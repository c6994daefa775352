/** :quit, :clear, :history, :cd */
import { formatHistory } from '../context/format-history';
import { command, info } from './types';

export const quitCommand = command({
  needs: [],
  name: 'quit',
  aliases: ['q', 'exit'],
  summary: 'leave aish',
  help: 'so do exit or quit alone on the line (any case), and !exit; exit 1 and other longer lines are prompts (or, after !, commands)',
  run: () => ({ quit: true }),
});

export const clearCommand = command({
  needs: ['chat'],
  name: 'clear',
  summary: 'start a new conversation (memory is kept)',
  run: ({ chat }) => {
    chat.newConversation();
    return { output: [info('new conversation')] };
  },
});

export const historyCommand = command({
  needs: ['chat'],
  name: 'history',
  args: '[--json]',
  summary: 'the exact messages the model would get next, system prompt included',
  complete: (_s, argv) => (argv.length === 0 ? ['--json'] : []),
  run: ({ chat, argv }) => {
    const msgs = chat.requestMessages();
    return { output: [info(argv[0] === '--json' ? JSON.stringify(msgs, null, 2) : formatHistory(msgs))] };
  },
});

export const cdCommand = command({
  needs: ['dir'],
  name: 'cd',
  args: 'DIR',
  summary: "change aish's directory (also !cd DIR)",
  run: ({ dir, rest }) => ({ output: [info(dir.change(rest))] }),
});
