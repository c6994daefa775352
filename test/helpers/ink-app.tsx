/** The REPL's App under ink-testing-library with a real engine against the suite's fake server. */
import { blankStatus } from '../../src/core/status';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from 'ink-testing-library';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import { App } from '../../src/frontends/repl/App';
import { createInkHost } from '../../src/frontends/repl/ink-host';
import { UiStore } from '../../src/frontends/repl/store';
import { routerFor } from '../../src/input/router';
import { InputHistory } from '../../src/sessions/input-history';
import type { SuiteServer } from './fake-server-suite';
import { tmpDir } from './tmp';

/** `config`: a config.ts body for this mount. `patience`: frames `until` polls (10 ms apart). */
export async function mountApp(fake: SuiteServer, opts: { config?: string; patience?: number } = {}) {
  const home = tmpDir();
  if (opts.config) {
    mkdirSync(join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(join(home, '.config', 'aish', 'config.ts'), opts.config);
  }
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    OPENAI_BASE_URL: fake.server.url,
    OPENAI_API_KEY: 'k',
  };
  const s = await setup({}, env);
  const store = new UiStore(blankStatus());
  const controls = createInkHost(store, { color: false, width: () => 100, onHandOff: async () => {} });
  const [engine, parts] = Engine.compose(s, controls.host, { env }, (p) => p);
  store.setStatus(engine.status());
  engine.start();
  let exited = false;
  const ui = render(
    <App
      store={store}
      input={routerFor(parts)}
      controls={controls}
      history={new InputHistory(s.paths.inputHistory)}
      onExit={() => (exited = true)}
    />,
  );
  const frame = () => ui.lastFrame() ?? '';
  // Everything written so far: the scrollback (<Static>) and the live frames.
  const all = () => ui.frames.join('\n');
  const until = async (pred: (f: string) => boolean, what: string) => {
    for (let i = 0; i < (opts.patience ?? 200); i++) {
      store.flush();
      if (pred(frame())) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`never saw ${what}; last frame:\n${frame()}`);
  };
  return { ui, store, engine, parts, frame, all, until, exited: () => exited };
}
