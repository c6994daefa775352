/** `:memory trust-project [--revoke]`: this checkout is the project its files name (memory/project/project-trust.ts). */
import { TRUST_VERB, trustProjectAt } from '../memory/project/project-confirm';
import { UsageError } from '../util/errors';
import { info, type SubCommand } from './types';

export const trustProjectSubcommand: SubCommand<'memory'> = {
  name: TRUST_VERB,
  args: '[--revoke]',
  help: [
    "use this project's items here: the checkout is the project its git remote or .aish/project-id names",
    '(a cloned repository only suggests that name); --revoke: no longer',
  ].join('\n'),
  complete: () => ['--revoke'],
  run: async ({ memory, argv }) => {
    if (argv.length > 1 || (argv[0] !== undefined && argv[0] !== '--revoke'))
      throw new UsageError(`usage: :memory ${TRUST_VERB} [--revoke]`);
    await memory.ready();
    const text = await trustProjectAt(memory.path, memory.cwd, argv[0] === '--revoke');
    memory.reselect();
    return { output: [info(text)] };
  },
};
