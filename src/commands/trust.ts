/** :trust — use this project's .aish/rules (after showing them); :trust --revoke — stop using them. */
import { confirm } from '../core/host';
import { UsageError } from '../util/errors';
import { revokeNow, trustNow, trustPreview } from '../tools/rules/report';
import { command, info, rows } from './types';

export const trustCommand = command({
  needs: ['tools', 'ui'],
  name: 'trust',
  args: '[--revoke]',
  summary: "use this project's .aish/rules: shows them, then asks [y/N]; --revoke stops using them",
  help: [
    'A project rules file counts only once you trust it; trust is recorded for the project directory',
    'and the file as it is now (an edited file needs :trust again), in <data dir>/trusted-rules.json.',
  ].join('\n'),
  complete: (_s, argv) => (argv.length === 0 ? ['--revoke'] : []),
  run: async ({ tools, ui, argv }) => {
    if (argv.length > 1 || (argv[0] !== undefined && argv[0] !== '--revoke')) throw new UsageError('usage: :trust [--revoke]');
    if (argv[0] === '--revoke') return { output: [info(revokeNow(tools.rules))] };
    const step = trustPreview(tools.rules);
    const shown = rows(step.lines.join('\n'));
    if (!step.ready) return { output: [shown] };
    ui.print(shown);
    if (!(await confirm(ui, 'trust these rules?'))) return { output: [info('nothing trusted')] };
    return { output: [info(trustNow(tools.rules, step.project))] };
  },
});
