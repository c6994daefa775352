/** :rules — the command rules in force and where each came from; :rules check CMD — what they decide. */
import { UsageError } from '../util/errors';
import { checkReport, listLines } from '../tools/rules/report';
import { command, rows, type SubCommand } from './types';

const subcommands: SubCommand<'tools'>[] = [
  {
    name: 'list',
    help: 'the rules in force, in order, with where each came from (config, .aish/rules, "always")',
    run: ({ tools }) => ({ output: [rows(listLines(tools.rules.active()).join('\n'))] }),
  },
  {
    name: 'check',
    args: 'CMD',
    help: 'what the rules decide for CMD (allow, ask, deny, or no rule), the rule, and the simple command it matched',
    run: async ({ tools, rest }) => {
      if (!rest.trim()) throw new UsageError('usage: :rules check CMD (e.g. :rules check sudo git push)');
      return { output: [rows((await checkReport(tools.rules, rest)).lines.join('\n'))] };
    },
  },
];

export const rulesCommand = command({
  needs: ['tools'],
  name: 'rules',
  summary: 'command rules in force (allow, ask, deny); :rules check CMD says which decides',
  subcommands,
  defaultSub: 'list',
});
