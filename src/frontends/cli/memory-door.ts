/**
 * The command line's door to the memory verbs: commander's arguments become the verb's; the verb
 * runs in ./memory-run.ts, loaded with the table only for `aish memory …` (./memory-table.ts: the
 * memory core is no cost to other commands).
 */
import type { Command } from 'commander';
import type { Setup } from '../../config/setup';
import type { Args, MemoryVerb } from '../../commands/memory-door';

/** The verbs and what runs one (./memory-table.ts). */
export interface VerbTable {
  verbs: readonly MemoryVerb[];
  run: (s: Setup, v: MemoryVerb, a: Args) => Promise<void>;
}

/** `memory: false`: every verb refuses, and nothing is read or written. */
export type WithSetup = <A extends unknown[]>(fn: (s: Setup, ...args: A) => unknown) => (...args: A) => Promise<void>;

/** `aish memory VERB`: its arguments and options from the table, its action the verb. */
export function registerVerb(memory: Command, v: MemoryVerb, run: VerbTable['run'], withSetup: WithSetup, rootYes: () => boolean): void {
  // The table's help names the REPL's `:memory X`; on the command line that is `aish memory X`.
  const c = memory.command(v.name).description(v.help.replace(/\n/g, ' ').replace(/:memory (?=[a-z])/g, 'aish memory '));
  const params = v.params.filter((p) => p.door !== 'repl');
  for (const p of params) {
    const name = `${p.name}${p.rest ? '...' : ''}`;
    c.argument(p.optional ? `[${name}]` : `<${name}>`, p.help);
  }
  const flags = v.flags.filter((f) => f.door !== 'repl');
  for (const f of flags) c.option(`${f.name}${f.value ? ` ${f.value}` : ''}`, f.help);
  c.action(
    withSetup(async (s, ...given: unknown[]) => {
      const opts = given[params.length] as Record<string, string | boolean | undefined>;
      // Commander gives each parameter as a string, a variadic one as an array of them, an absent one as undefined.
      const args = given.slice(0, params.length) as Array<string | string[] | undefined>;
      const words = args.flatMap((w) => w ?? []);
      const rest = params.findIndex((p) => p.rest);
      const text = rest < 0 ? '' : [args[rest] ?? []].flat().join(' ').trim();
      const set = new Map<string, string | true>();
      for (const f of flags) {
        const key = f.name.slice(2).replace(/-(\w)/g, (_m, ch: string) => ch.toUpperCase());
        const o = opts[key];
        if (o !== undefined && o !== false) set.set(f.name, o === true ? true : String(o));
      }
      // --yes is also a root option (for --norris); commander gives it to the root when both exist.
      if (flags.some((f) => f.name === '--yes') && rootYes()) set.set('--yes', true);
      const a: Args = { words, text, flags: set };
      await run(s, v, a);
    }),
  );
}
