/**
 * What `aish memory VERB` runs once its words are parsed (./memory-door.ts registers the verbs):
 * the verb over a memory service of its own (memory/service.ts), what it shows to stdout (warnings
 * to stderr); a failure is thrown, after what was shown (exit 1). Loaded only when a verb runs, so
 * other commands never load the memory core.
 */
import type { Setup } from '../../config/setup';
import { jsonText, type Args, type Door, type MemoryVerb, type Shown } from '../../commands/memory-door';
import { memoryOff, memoryService, type MemoryService } from '../../memory/service';
import { AishError } from '../../util/errors';
import { writeJsonArray } from './memory-json';
import { out, warn } from './output';

/** `memory: false`: every verb refuses, and nothing is read or written. */
function serviceOf(s: Setup): MemoryService {
  const on = s.config.memory;
  if (!on)
    return memoryOff(
      `memory is off in the config (memory: false in ${s.configPath ?? 'the config'}) — nothing done; remove that line to use aish memory`,
      s.paths.memoryPath,
    );
  const path = s.paths.memoryPath;
  const notice = (t: string) => warn(`warning: ${t}`);
  // The REPL's memory view, without the REPL: plan and search rank exactly as a turn would. Made
  // only by a verb that needs it (add and list --json go through the index alone).
  const open = async () => {
    const { MemorySession } = await import('../../memory/session');
    return new MemorySession(s.config, path, { cwd: () => process.cwd() }, { notice: (_k, t) => notice(t), changed: () => {} });
  };
  return memoryService({ path, cwd: process.cwd(), open }, { live: false, sync: on.sync, notice });
}

/** The last prompt of the latest session, for `plan` without TEXT (the session log is read only then). */
async function lastLoggedPrompt(s: Setup): Promise<string | null> {
  const { latestSession, loadSession } = await import('../../sessions/sessions');
  const latest = latestSession(s.paths.sessionsDir);
  if (!latest) return null;
  const turns = loadSession(latest.path).turns;
  for (let i = turns.length - 1; i >= 0; i--) {
    const t = turns[i]!;
    if (t.role === 'user' && typeof t.content === 'string' && t.meta === undefined) return t.content;
  }
  return null;
}

async function cliDoor(s: Setup): Promise<Door> {
  // Rows are cut to the terminal's width; piped output stays whole.
  const width = process.stdout.isTTY ? process.stdout.columns : undefined;
  return {
    repl: false,
    cmd: 'aish memory',
    path: s.paths.memoryPath,
    interactive: process.stdin.isTTY === true,
    // The verbs ask only in the REPL (memory-verbs.ts): on the command line its flags are the answer.
    ask: async () => false,
    print: (l) => (l.kind === 'warn' ? warn(l.text) : out(l.text)),
    lastPrompt: () => lastLoggedPrompt(s),
    // The width tables load only on a terminal (a pipe or a script never cuts).
    ...(width && { fit: { width, cut: (await import('../../util/width')).truncateColumns } }),
  };
}

async function present(r: Shown): Promise<void> {
  for (const l of r.lines) (l.kind === 'warn' ? warn : out)(l.text);
  // A million items are written a batch at a time, never as one string.
  if (r.json && 'items' in r.json) await writeJsonArray(r.json.items, process.stdout, r.json.shape);
  else if (r.json) out(jsonText(r.json));
  if (r.error) throw new AishError(r.error);
}

/** Runs verb `v` with arguments `a` through the command line's door. */
export async function runVerb(s: Setup, v: MemoryVerb, a: Args): Promise<void> {
  await present(await v.exec(serviceOf(s), a, await cliDoor(s)));
}
