/**
 * Pinned items over the [background] budget in the REPL: the most recently pinned are kept (the
 * time of the pin record, or the item's own when it carries `pinned: true`), and every pinned item
 * left out is named with its reason, `budget` — at start, on pin and unpin, in :memory list and in
 * :memory plan. A real store file, the real engine; no model is asked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import { routerFor } from '../../src/input/router';
import { recordingHost } from '../helpers/host';
import { tmpDir } from '../helpers/tmp';

/**
 * 80 characters: a [background] line of 102–117 with its date (and its age, however old the item
 * is by now: ` (2025-01-01, 11 months old)`). With the header (62), two fit in 300 characters, not three.
 */
const text = (name: string) => `${name} `.padEnd(80, name.slice(0, 1).toLowerCase());

async function repl(records: object[], budget = 300) {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
  const s = await setup({}, env);
  if (s.config.memory) s.config.memory.injectMaxChars = budget;
  mkdirSync(s.paths.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(s.paths.memoryPath, records.map((r) => JSON.stringify(r)).join('\n') + '\n', { mode: 0o600 });
  const { host, printed } = recordingHost([]);
  const [engine, input] = Engine.compose(s, host, { env }, routerFor);
  /** What one command printed, as [kind, text] pairs. */
  const run = async (line: string) => {
    const from = printed.length;
    await input.submit(line);
    return printed.slice(from).map((p) => [p.kind, p.text] as [string, string]);
  };
  return { engine, printed, run };
}

const item = (id: number, day: string, o: object = {}) => ({
  id,
  ts: `2025-${day}T10:00:00Z`,
  kind: 'fact',
  content: text(`Item${id}`),
  ...o,
});
const pin = (id: number, day: string, target: number, kind = 'pin') => ({ id, ts: `2025-${day}T10:00:00Z`, kind, target });

describe('pinned items over the [background] budget', () => {
  it('keeps the most recently pinned: an old item pinned last wins over newer pinned ones', async () => {
    // #1 is the oldest item but the last pinned (a pin record); #2 and #3 carry `pinned: true`.
    const { run, printed } = await repl([
      item(1, '01-01'),
      item(2, '06-01', { pinned: true }),
      item(3, '07-01', { pinned: true }),
      pin(4, '08-01', 1),
    ]);
    const list = (await run(':memory list')).map(([, t]) => t).join('\n');
    // Named at start, with the reason.
    const start = printed.find((p) => p.kind === 'warn' && p.text.startsWith('pinned item left out'));
    expect(start?.text).toMatch(
      /^pinned item left out of \[background\] \(budget\): #2 — pinned memory needs \d+ characters, more than memory\.injectMaxChars \(300\); the most recently pinned are kept/,
    );
    expect(list).toMatch(/^\*\s+1\s.*Item1 .*\[pinned\] {2}\(\d+ years? old\)$/m);
    expect(list).toMatch(/^\*\s+3\s.*Item3 .*\[pinned\] {2}\(\d+ years? old\)$/m);
    expect(list).toMatch(/^ \s+2\s.*Item2 .*\[pinned, left out: budget\] {2}\(\d+ years? old\)$/m);
    expect(list).toContain('pinned but left out of [background] (budget): #2 — the most recently pinned are kept');
  });

  it('names every pin left out on pin and unpin, and in the plan (budget, never below threshold)', async () => {
    const { run } = await repl([
      item(1, '01-01'),
      item(2, '02-01'),
      item(3, '03-01'),
      item(4, '04-01'),
      pin(5, '05-01', 1),
      pin(6, '05-02', 2),
    ]);
    expect(await run(':memory pin 3')).toEqual([
      ['info', 'memory: pinned 3'],
      ['warn', expect.stringMatching(/^pinned item left out of \[background\] \(budget\): #1 — pinned memory needs/)],
    ]);
    // Already pinned and left out: said so, not just "already pinned".
    expect(await run(':memory pin 1')).toEqual([
      ['info', 'memory 1 is already pinned; nothing written'],
      ['warn', expect.stringMatching(/^#1 is pinned but left out of \[background\] \(budget\): pinned memory needs/)],
    ]);
    const plan = (await run(':memory plan where are the logs?'))[0]![1];
    expect(plan).toMatch(/left out: \d+ \(budget 1, below threshold \d+\)/);
    expect(plan).toMatch(/^ {2}budget +#1 \(fact\) Item1 .*\[pinned\]( {2}\(\d+ \w+ old\))?$/m);
    expect(plan).not.toMatch(/below threshold +#1 /);
    // Unpinning #2 lets #1 in again.
    expect(await run(':memory unpin 2')).toEqual([
      ['info', 'memory: unpinned 2'],
      ['info', 'memory: pinned #1 in [background] again (no longer left out for budget)'],
    ]);
    expect(await run(':memory plan where are the logs?')).not.toContainEqual(['rows', expect.stringMatching(/budget +#1 /)]);
  });

  it('an unpin that leaves some out says which remain out; a pin too long for the budget says it is left out', async () => {
    const { run } = await repl([
      item(1, '01-01', { pinned: true }),
      item(2, '02-01', { pinned: true }),
      item(3, '03-01', { pinned: true }),
      item(4, '04-01', { pinned: true }),
      { id: 5, ts: '2025-05-01T10:00:00Z', kind: 'fact', content: 'long '.repeat(80) },
    ]);
    expect(await run(':memory unpin 4')).toEqual([
      // At start (the first command loads memory): every one left out, most recently pinned first.
      ['warn', expect.stringMatching(/^pinned items left out of \[background\] \(budget\): #2, #1 — pinned memory needs \d+ characters/)],
      ['info', 'memory: unpinned 4'],
      ['info', 'memory: pinned #2 in [background] again (no longer left out for budget)'],
      ['warn', expect.stringMatching(/^pinned item still left out of \[background\] \(budget\): #1 — /)],
    ]);
    expect(await run(':memory pin 5')).toEqual([
      ['info', 'memory: pinned 5'],
      [
        'warn',
        expect.stringMatching(/^#5 is pinned but left out of \[background\] \(budget\); so is #1: pinned memory needs \d+ characters/),
      ],
    ]);
  });

  it('a pinned project item of another directory is pinned but not in [background] here, for its scope', async () => {
    const { run } = await repl([item(1, '01-01'), item(2, '02-01', { scope: '/nowhere/else' })]);
    expect(await run(':memory pin 2')).toEqual([
      ['info', 'memory: pinned 2'],
      ['info', '#2 is pinned but not in [background] here (scope: a project item of another directory)'],
    ]);
  });
});
