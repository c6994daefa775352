/**
 * The background sync of a starting REPL, in a real terminal: the result on the status line, the
 * received items in [background] of the next request; offline, one line saying what git said.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { systemText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { syncNet } from '../helpers/sync-machines';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

function start(home: string, remote: string): PtySession {
  const config = join(home, 'config.ts');
  writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(remote)}, name: "desk" } } };\n`);
  const s = spawnAish(['--config', config, '--data-dir', join(home, 'data')], {
    home,
    env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' },
    cols: 160,
  });
  all.push(s);
  return s;
}

describe('memory sync when aish starts', () => {
  it('syncs in the background, reports once on the status line, and the next request has what it received', async () => {
    const net = syncNet();
    const laptop = net.machine('laptop');
    await laptop.store().add('fact', 'The release train leaves on Thursdays.');
    await laptop.sync();
    const home = join(net.root, 'desk');
    mkdirSync(home, { recursive: true });
    const s = start(home, net.remote);
    await s.waitFor('synced ↑0 ↓1', { timeoutMs: 20_000 });
    const mark = s.text().length;
    s.write('when does the release train leave?\r');
    await s.waitFor('ok.', { from: mark });
    expect(systemText(fake.server.requests.at(-1)!)).toContain('- (from laptop) (fact) The release train leaves on Thursdays.');
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
  });

  it('offline: the status line says what git said; typing and answers go on', async () => {
    const net = syncNet();
    const home = join(net.root, 'desk');
    mkdirSync(home, { recursive: true });
    const s = start(home, join(net.root, 'gone', 'remote.git'));
    await s.waitFor('sync failed: cannot fetch', { timeoutMs: 20_000 });
    const mark = s.text().length;
    s.write('hello\r');
    await s.waitFor('ok.', { from: mark });
    s.write(':quit\r');
    expect(await s.exitCode()).toBe(0);
  });
});
