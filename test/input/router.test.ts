/** Input routing: `:` to commands (and their subcommand tables), `!` to the shell, errors shown as one line. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { commandServices } from '../../src/commands/services';
import { command, type CommandCatalog } from '../../src/commands/types';
import { commandCatalog } from '../../src/commands/registry';
import { InputRouter, routerFor } from '../../src/input/router';
import { tmpDir } from '../helpers/tmp';

async function router() {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const printed: OutputItem[] = [];
  const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
  const [engine, parts] = Engine.compose(await setup({}, env), host, { env }, (p) => p);
  const input = routerFor(parts);
  const last = () => printed.at(-1);
  return { input, printed, last, engine, parts };
}

describe('InputRouter', () => {
  it('blank lines do nothing; :quit and its aliases quit', async () => {
    const t = await router();
    expect(await t.input.submit('   ')).toEqual({ quit: false });
    expect(t.printed).toEqual([]);
    for (const q of [':quit', ':q', ':exit']) expect(await t.input.submit(q)).toEqual({ quit: true });
  });

  it('a bare exit or quit, any case and spacing, or !exit, quits as :quit does; with more words it is a prompt', async () => {
    const t = await router();
    const sent: string[] = [];
    const p = t.parts;
    const input = new InputRouter(
      { host: p.host, prompt: (text) => (sent.push(text), Promise.resolve(undefined)), userShell: p.userShell, run: p.run },
      commandServices(p, commandCatalog),
    );
    for (const line of ['exit', 'quit', 'EXIT', ' Quit ', '\texit\t', 'exit\u00a0', '!exit', '! exit ', '!!exit'])
      expect(await input.submit(line), JSON.stringify(line)).toEqual({ quit: true });
    expect(sent).toEqual([]);
    const prompts = ['exit 1', 'exit now please', 'quit smoking', 'exit?', 'please quit', 'exit.', 'quitting'];
    for (const line of prompts) expect(await input.submit(line), line).toEqual({ quit: false });
    expect(sent).toEqual(prompts);
  });

  it('an unknown command suggests the closest one', async () => {
    const t = await router();
    await t.input.submit(':modle');
    expect(t.last()).toEqual({ kind: 'error', text: 'unknown command :modle — try :help (did you mean :model?)' });
  });

  it('a bare `:` points at :help instead of guessing a command', async () => {
    const t = await router();
    for (const line of [':', ':  ']) {
      await t.input.submit(line);
      expect(t.last()).toEqual({ kind: 'info', text: 'type :help for commands' });
    }
  });

  it(':memory forget of an unknown id is an error, like every other', async () => {
    const t = await router();
    await t.input.submit(':memory forget 99');
    expect(t.last()).toEqual({ kind: 'error', text: 'no memory item 99; nothing written (see :memory list)' });
  });

  it('a command with subcommands runs its default without one, and names them all for an unknown one', async () => {
    const t = await router();
    await t.input.submit(':memory');
    expect(t.last()).toEqual({ kind: 'info', text: 'memory is empty — add with :remember TEXT' });
    await t.input.submit(':memory frob 1');
    expect(t.last()).toEqual({
      kind: 'error',
      text: 'unknown :memory subcommand "frob" — usage: :memory add|list|plan|search|inject|pin|unpin|forget|edit|clear|summarize|review|log|undo|sync|share|trust-project|compact|path — see :help memory',
    });
    // A slip names the one meant, as an unknown :command and `aish memory lsit` do.
    await t.input.submit(':memory lst');
    expect(t.last()!.text).toMatch(/^unknown :memory subcommand "lst" \(did you mean :memory list\?\) — usage: :memory add\|/);
    await t.input.submit(':sessions serch x');
    expect(t.last()!.text).toMatch(/^unknown :sessions subcommand "serch" \(did you mean :sessions search\?\) — /);
  });

  it('subcommands get the text after their own name, spacing kept', async () => {
    const t = await router();
    await t.input.submit(':memory add pref   two  spaces ');
    await t.input.submit(':memory path');
    const stored = readFileSync(t.last()!.text, 'utf8').trim().split('\n').at(-1)!;
    expect(JSON.parse(stored)).toMatchObject({ id: 1, kind: 'pref', content: 'two  spaces' });
  });

  it("Tab after @ in a prompt completes paths in aish's directory; not in `!cmd` lines", async () => {
    const t = await router();
    // The tests run in the repository root.
    expect(t.input.complete('explain @READ')).toEqual(['explain @README.md']);
    expect(t.input.complete('@sr')).toEqual(['@src/']);
    expect(t.input.complete('see (@src/con')).toEqual(['see (@src/config/', 'see (@src/context/']);
    expect(t.input.complete('!cat @READ')).toEqual([]);
    expect(t.input.complete('mail me@READ')).toEqual([]);
  });

  it('Tab offers the next word only: an argument already typed is not offered again', async () => {
    const t = await router();
    expect(t.input.complete(':set ')).toEqual([':set keys']);
    expect(t.input.complete(':set keys ')).toEqual([':set keys emacs', ':set keys vi']);
    expect(t.input.complete(':set keys vi ')).toEqual([]);
    for (const line of [':checkpoints --all ', ':history --json ', ':trust --revoke ', ':rewind 2 ', ':norris tidy up ', ':help memory ']) {
      expect(t.input.complete(line), line).toEqual([]);
    }
    expect(t.input.complete(':help mem')).toEqual([':help memory']);
    expect(t.input.complete(':trust ')).toEqual([':trust --revoke']);
  });

  it('a prompt with an @path that cannot be attached is not sent, and says why', async () => {
    const t = await router();
    await t.input.submit('what is in @/dev/urandom');
    expect(t.printed).toEqual([
      { kind: 'error', text: '@/dev/urandom: not a regular file (a character device) — not attached' },
      { kind: 'error', text: 'prompt not sent: a file could not be attached — remove the @ or name another file' },
    ]);
    expect(t.parts.conversation.messages).toEqual([]);
  });

  it('`!` with nothing after it explains itself instead of running a shell', async () => {
    const t = await router();
    await t.input.submit('!');
    expect(t.last()?.text).toMatch(/^!CMD runs a shell command/);
  });

  it('a command runs and completes with the services it declares and no others', async () => {
    const t = await router();
    const seen: string[][] = [];
    const probe = command({
      needs: ['chat', 'usage'],
      name: 'probe',
      summary: 'shows what it was given',
      complete: (ctx) => (seen.push(Object.keys(ctx).sort()), []),
      run: (ctx) => void seen.push(Object.keys(ctx).sort()),
    });
    const catalog: CommandCatalog = {
      all: () => [probe],
      find: (n) => (n === 'probe' ? probe : undefined),
    };
    const p = t.parts;
    const input = new InputRouter(
      { host: p.host, prompt: () => Promise.resolve(undefined), userShell: p.userShell, run: p.run },
      commandServices(p, catalog),
      catalog,
    );
    await input.submit(':probe now');
    input.complete(':probe x');
    expect(seen).toEqual([
      ['argv', 'chat', 'rest', 'usage'],
      ['chat', 'usage'],
    ]);
  });
});
