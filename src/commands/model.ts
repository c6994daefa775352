/** :model [NAME] */
import { presetNames } from '../broker/presets';
import { info, type MetaCommand } from './types';

export const modelCommands: MetaCommand[] = [
  {
    name: 'model',
    args: '[NAME]',
    summary: 'switch model preset; without NAME, list the presets',
    complete: (engine, argv) => (argv.length === 0 ? presetNames(engine.config) : []),
    run: ({ engine, argv }) => {
      if (argv[0]) {
        const p = engine.setPreset(argv[0]);
        return { output: [info(`model: ${p.name} (${p.model} at ${p.baseURL})`)] };
      }
      const rows = presetNames(engine.config).map((name) => {
        const m = engine.config.models[name]!;
        const active = name === engine.preset.name;
        const where = m.baseURL ?? process.env.OPENAI_BASE_URL ?? 'OpenAI';
        return `${active ? '*' : ' '} ${name.padEnd(12)} ${m.model}  (${where})`;
      });
      return { output: [info(`${rows.join('\n')}\n* = active; switch with :model NAME`)] };
    },
  },
];
