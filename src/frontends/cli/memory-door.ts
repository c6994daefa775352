/**
 * The command line's door to the memory verbs: commander's arguments become the verb's, the verb
 * runs over a memory service of its own (memory/service.ts), and what it shows goes to stdout
 * (warnings to stderr); a failure is thrown, after what was shown (exit 1).
 */
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { Setup } from '../../config/setup';
import { jsonText, type Args, type Door, type MemoryVerb, type Shown } from '../../commands/memory-door';
import { memoryOff, memoryService, type MemoryService } from '../../memory/service';
import { MemorySession } from '../../memory/session';
import { latestSession, loadSession } from '../../sessions/sessions';
import { AishError } from '../../util/errors';
import { allowLineEditing, shown } from '../../util/output-guard';
import { truncateColumns } from '../../util/width';
import { writeJsonArray } from './memory-json';
import { out, warn } from './output';

/** `memory: false`: every verb refuses, and nothing is read or written. */
export type WithSetup = <A extends unknown[]>(fn: (s: Setup, ...args: A) => unknown) => (...args: A) => Promise<void>;

function serviceOf(s: Setup): MemoryService {
  const on = s.config.memory;
  if (!on)
    return memoryOff(
      `memory is off in the config (memory: false in ${s.configPath ?? 'the config'}) — nothing done; remove that line to use aish memory`,
      s.paths.memoryPath,
    );
  // The REPL's memory view, without the REPL: plan and search rank exactly as a turn would.
  const session = new MemorySession(
    s.config,
    s.paths.memoryPath,
    { cwd: () => process.cwd() },
    { notice: (_k, t) => warn(`warning: ${t}`), changed: () => {} },
  );
  return memoryService(session, { live: false, sync: on.sync, notice: (t) => warn(`warning: ${t}`) });
}

/** The last prompt of the latest session, for `plan` without TEXT. */
function lastLoggedPrompt(s: Setup): string | null {
  const latest = latestSession(s.paths.sessionsDir);
  if (!latest) return null;
  const turns = loadSession(latest.path).turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.role === 'user' && typeof t.content === 'string' && t.meta === undefined) return t.content;
  }
  return null;
}

async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const endEditing = allowLineEditing();
  try {
    const a = await rl.question(shown(`${question} [y/N] `));
    return /^y(es)?$/i.test(a.trim());
  } catch {
    return false;
  } finally {
    rl.close();
    endEditing();
  }
}

function cliDoor(s: Setup): Door {
  // Rows are cut to the terminal's width; piped output stays whole.
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  return {
    repl: false,
    cmd: 'aish memory',
    path: s.paths.memoryPath,
    interactive: process.stdin.isTTY === true,
    ask: askYesNo,
    print: (l) => (l.kind === 'warn' ? warn(l.text) : out(l.text)),
    lastPrompt: () => lastLoggedPrompt(s),
    ...(width && { fit: { width, cut: truncateColumns } }),
  };
}

async function present(r: Shown): Promise<void> {
  for (const l of r.lines) (l.kind === 'warn' ? warn : out)(l.text);
  // A million items are written a batch at a time, never as one string.
  if (r.json && 'items' in r.json) await writeJsonArray(r.json.items, process.stdout, r.json.shape);
  else if (r.json) out(jsonText(r.json));
  if (r.error) throw new AishError(r.error);
}

/** `aish memory VERB`: its arguments and options from the table, its action the verb. */
export function registerVerb(memory: Command, v: MemoryVerb, withSetup: WithSetup, rootYes: () => boolean): void {
  const c = memory.command(v.name).description(v.help.replace(/\n/g, ' '));
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
      await present(await v.exec(serviceOf(s), a, cliDoor(s)));
    }),
  );
}
