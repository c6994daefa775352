/**
 * The question in the real REPL (a pseudo-terminal): at a checkout naming a project the user has
 * items for, before the first prompt goes out — `this checkout is … — use its N memories here?
 * [y/N]`. Yes: the items go with that prompt, and the next session does not ask; no: they stay out,
 * and nothing is asked again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { systemText } from '../helpers/openai-server';
import { spawnAish, type PtySession } from '../helpers/pty';
import { tmpDir } from '../helpers/tmp';
import { realPath } from '../../src/util/paths';
import { waitUntil } from '../helpers/wait';

const fake = useFakeOpenAI({ defaultReply: { text: 'ok.' } });
const all: PtySession[] = [];
afterAll(() => all.forEach((s) => s.kill()));

/** A home whose memory holds a private `id:shop` item and a global one, and an unpacked tarball naming `shop`. */
function setup(): { home: string; dir: string } {
  const home = realPath(tmpDir());
  const data = join(home, '.local', 'share', 'aish');
  mkdirSync(data, { recursive: true, mode: 0o700 });
  const items = [
    { id: 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'shop deploy token: vault secret/shop-7', scope: 'id:shop', private: true },
    { id: 2, ts: '2026-01-01T00:00:00Z', kind: 'pref', content: 'prefers short answers' },
  ];
  writeFileSync(join(data, 'memory.jsonl'), items.map((i) => JSON.stringify(i)).join('\n') + '\n', { mode: 0o600 });
  const dir = join(home, 'unpacked');
  mkdirSync(join(dir, '.aish'), { recursive: true });
  writeFileSync(join(dir, '.aish', 'project-id'), 'shop\n');
  return { home, dir };
}

function start(home: string, cwd: string): PtySession {
  const s = spawnAish([], { home, cwd, env: { OPENAI_BASE_URL: fake.server.url, OPENAI_API_KEY: 'k' }, cols: 160 });
  all.push(s);
  return s;
}

async function ask(s: PtySession, text: string): Promise<string> {
  const mark = s.text().length;
  const sent = fake.server.requests.length;
  s.write(`${text}\r`);
  // The request first, then its answer drawn, then a quiet screen: a redraw of an earlier "ok." is not this answer.
  await waitUntil(() => fake.server.requests.length > sent, 'the request');
  await s.waitFor('ok.', { from: mark });
  await s.settle();
  return systemText(fake.server.requests.at(-1)!);
}

const QUESTION = 'this checkout is shop (.aish/project-id) — use its 1 memory here? [y/N]';

/** A first session in the checkout, at the question its first prompt brings (`mark`: where that prompt was typed). */
async function atQuestion(): Promise<{ home: string; dir: string; a: PtySession; mark: number }> {
  const { home, dir } = setup();
  const a = start(home, dir);
  await a.waitFor('mem 1');
  const mark = a.text().length;
  a.write('how do we deploy?\r');
  await a.waitFor(QUESTION, { from: mark });
  return { home, dir, a, mark };
}

describe('confirming a project in the REPL', () => {
  it('yes: the project’s items go with that prompt; the next session does not ask', async () => {
    const { home, dir, a, mark } = await atQuestion();
    a.write('y\r');
    await a.waitFor('ok.', { from: mark });
    expect(systemText(fake.server.requests.at(-1)!)).toContain('vault secret/shop-7');
    a.write('\x04');
    expect(await a.exitCode()).toBe(0);

    const b = start(home, dir);
    await b.waitFor('mem 2');
    expect(await ask(b, 'and again?')).toContain('vault secret/shop-7');
    expect(b.text()).not.toContain('use its 1 memory here?');
    b.write('\x04');
    expect(await b.exitCode()).toBe(0);
  });

  it('no (Enter): nothing of the project is sent, and nothing is asked again', async () => {
    const { home, dir, a, mark } = await atQuestion();
    a.write('\r');
    await a.waitFor('ok.', { from: mark });
    const sys = systemText(fake.server.requests.at(-1)!);
    expect(sys).toContain('prefers short answers');
    expect(sys).not.toContain('shop-7');
    expect(await ask(a, 'second prompt')).not.toContain('shop-7');
    a.write('\x04');
    expect(await a.exitCode()).toBe(0);

    const b = start(home, dir);
    await b.waitFor('mem 1');
    expect(await ask(b, 'and again?')).not.toContain('shop-7');
    expect(b.text()).not.toContain('use its 1 memory here?');
    b.write('\x04');
    expect(await b.exitCode()).toBe(0);
  });
});
