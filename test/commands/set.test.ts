import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { tmpDir } from '../helpers/tmp';

describe(':set keys', () => {
  it('switches the line-editing keys of the running session and rejects other values', async () => {
    const home = tmpDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
    const printed: OutputItem[] = [];
    const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
    const s = await setup({}, env);
    const input = Engine.compose(s, host, { env }, routerFor)[1];
    expect(s.config.editor.keys).toBe('emacs');
    await input.submit(':set keys vi');
    expect(s.config.editor.keys).toBe('vi');
    await input.submit(':set keys vim');
    expect(s.config.editor.keys).toBe('vi');
    expect(printed.at(-1)).toMatchObject({ kind: 'warn' });
    expect(printed.at(-1)!.text).toContain('vi or emacs');
    await input.submit(':set keys emacs');
    expect(s.config.editor.keys).toBe('emacs');
    await input.submit(':set');
    expect(printed.at(-1)!.text).toBe('keys emacs');
  });
});

describe(':config reload and editor.keys', () => {
  it('applies a changed editor.keys at once (the REPL reads it on every key)', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default {};\n');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
    const printed: OutputItem[] = [];
    const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
    const s = await setup({ config: cfg }, env);
    const input = Engine.compose(s, host, { env }, routerFor)[1];
    writeFileSync(cfg, "export default { editor: { keys: 'vi' } };\n");
    await input.submit(':config reload');
    expect(printed.at(-1)!.text).toContain('applied editor');
    expect(s.config.editor.keys).toBe('vi');
  });
});
