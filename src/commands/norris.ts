/** :norris GOAL, :norris stop */
import { norrisReport, runNorris } from '../norris/norris';
import { info, warn, type MetaCommand } from './types';

export const norrisCommands: MetaCommand[] = [
  {
    name: 'norris',
    args: 'GOAL | stop',
    summary: 'work on GOAL on its own: non-destructive steps run unasked, destructive ones ask',
    help: [
      '  :norris GOAL   the model works toward GOAL with run_command and MCP tools, one step per model call,',
      '                 at most norris.maxSteps steps; destructive commands still ask [y/N]',
      '  :norris stop   stop a running goal (Ctrl-C does the same)',
    ].join('\n'),
    complete: () => ['stop'],
    run: async ({ engine, rest }) => {
      if (rest === 'stop') return { output: [info(engine.norrisStep ? 'stopping…' : 'Norris is not running')] };
      const r = await runNorris(engine, rest, { yes: false });
      return { output: [r.end === 'done' || r.end === 'stopped' ? info(norrisReport(r)) : warn(norrisReport(r))] };
    },
  },
];
