/**
 * `aish --norris "GOAL" [--yes]`: a Norris run with nobody to ask. Non-destructive steps
 * run; destructive ones run only with --yes, else they are refused and reported. Exit 0 when the
 * goal was reached with nothing refused, 1 otherwise, 2 when the preset has no API key.
 */
import { noKeyError } from '../broker/errors';
import type { Setup } from '../config/setup';
import type { EngineOptions } from '../core/options';
import { norrisReport } from '../core/norris';
import { formatError } from '../util/errors';
import { plainHost } from './plain';
import { withEngine } from './start-engine';

export async function runNorrisCli(setup: Setup, goal: string, opts: EngineOptions & { yes: boolean }): Promise<number> {
  const host = { ...plainHost(async () => null), canAsk: false };
  return withEngine(setup, host, { ...opts, capture: false, oneshot: true }, async ({ engine }) => {
    // No key: a configuration error (exit 2), said before a step is announced.
    const preset = engine.preset;
    if (!preset.apiKey) {
      process.stderr.write(`aish: ${noKeyError(preset).message}\n`);
      return 2;
    }
    try {
      const r = await engine.runNorris(goal, { yes: opts.yes });
      const line = norrisReport(r);
      if (r.end === 'done' && r.refused === 0) process.stdout.write(line + '\n');
      else process.stderr.write(`aish: ${line}${r.refused && !opts.yes ? ' — rerun with --yes to allow destructive steps' : ''}\n`);
      return r.end === 'done' && r.refused === 0 ? 0 : 1;
    } catch (err) {
      process.stderr.write(`aish: ${formatError(err)}\n`);
      return 1;
    }
  });
}
