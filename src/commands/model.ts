/** :model [NAME] */
import { command, info } from './types';

export const modelCommand = command({
  needs: ['models', 'config', 'configFile'],
  name: 'model',
  args: '[NAME]',
  summary: 'switch model preset; without NAME, list the presets',
  complete: ({ models }, argv) => (argv.length === 0 ? models.names() : []),
  run: async ({ models, config, configFile, argv }) => {
    if (argv[0]) {
      // A preset added to the config since start: read the file again before saying there is none.
      if (!models.names().includes(argv[0])) await configFile.reload().catch(() => undefined);
      const p = models.select(argv[0]);
      return { output: [info(`model: ${p.name} (${p.model} at ${p.baseURL})`)] };
    }
    const rows = models.names().map((name) => {
      const m = config.models[name]!;
      const active = name === models.active.name;
      const where = m.baseURL ?? process.env.OPENAI_BASE_URL ?? 'OpenAI';
      return `${active ? '*' : ' '} ${name.padEnd(12)} ${m.model}  (${where})`;
    });
    return { output: [info(`${rows.join('\n')}\n* = active; switch with :model NAME`)] };
  },
});
