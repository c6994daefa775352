/** `:config [path]`, `:config reload` */
import { newConfigHint } from '../config/example';
import { tildify } from '../util/paths';
import { command, info } from './types';

export const configCommand = command({
  needs: ['configFile', 'paths'],
  name: 'config',
  summary: 'where the config file is; reload it without restarting',
  subcommands: [
    {
      name: 'path',
      help: 'the config file in use and the data directory (also :config alone)',
      run: ({ configFile, paths }) => ({
        output: [
          info(
            `config: ${configFile.path ? tildify(configFile.path) : `none — the defaults (${newConfigHint(configFile.defaultPath)})`}\ndata:   ${tildify(paths.dataDir)}`,
          ),
        ],
      }),
    },
    {
      name: 'reload',
      help: 'read the config file again: model presets apply now, other changes at the next start',
      run: async ({ configFile }) => ({ output: [info(await configFile.reload())] }),
    },
  ],
  defaultSub: 'path',
});
