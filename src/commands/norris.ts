/** :norris GOAL, :norris stop */
import { norrisReport } from '../core/norris';
import { command, info, warn } from './types';

export const norrisCommand = command({
  needs: ['norris'],
  name: 'norris',
  args: 'GOAL | stop',
  summary: 'work on GOAL on its own: non-destructive steps run unasked, destructive ones ask',
  help: [
    '  :norris GOAL   the model works toward GOAL with run_command and MCP tools, one step per model call,',
    '                 at most norris.maxSteps steps; destructive commands still ask [y/N]',
    '  :norris stop   stop a running goal (Ctrl-C does the same)',
  ].join('\n'),
  complete: (_s, argv) => (argv.length === 0 ? ['stop'] : []),
  run: async ({ norris, rest }) => {
    // While a goal runs, the front end turns `:norris stop` into a cancel before it gets here.
    if (rest === 'stop') return { output: [info('Norris is not running')] };
    const r = await norris.run(rest, { yes: false });
    return { output: [r.end === 'done' || r.end === 'stopped' ? info(norrisReport(r)) : warn(norrisReport(r))] };
  },
});
