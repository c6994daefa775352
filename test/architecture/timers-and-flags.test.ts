/**
 * Start-up and run-time honesty, checked on the source:
 * - no file sets V8 flags at run time (`v8.setFlagsFromString`) or forces garbage collections
 *   (V8 options belong on the command line, where Node reads them before it starts);
 * - every timer in production code is one of the reviewed kinds below: a limit on how long
 *   something may take, a throttle or debounce, a retry back-off, or a poll of a state with a
 *   deadline. A timer that guesses when something else is done ("wait 40 ms for memory") is a
 *   race that a busy machine loses; a new timer must be added here with its reason, or replaced by
 *   waiting on the event itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Timers per file, and why each is not a guess. */
const REVIEWED: Record<string, { count: number; why: string }> = {
  'src/broker/broker.ts': { count: 3, why: "retry back-off (abortable) and the stream's idle limit" },
  'src/checkpoints/git.ts': { count: 1, why: "back-off between retries of git's index.lock" },
  'src/config/load.ts': { count: 1, why: 'limit: a config module that never settles is reported after 5 s' },
  'src/core/run-slot.ts': { count: 1, why: 'limit: at exit, a cancelled turn gets up to 1 s to log the part of its answer that came' },
  'src/frontends/mcp/server.ts': { count: 1, why: 'limit: an MCP tool call is answered within 10 s' },
  'src/frontends/repl/components/LiveArea.tsx': { count: 1, why: 'the spinner animation' },
  'src/frontends/repl/store.ts': { count: 1, why: 'throttle: one frame per ~33 ms while streaming, never per token' },
  'src/frontends/repl/terminal-size.ts': { count: 1, why: 'debounce of resize events' },
  'src/memory/embed/client.ts': { count: 1, why: "limit on one embeddings call (a turn's message: embeddings.timeoutMs; a batch: 30 s)" },
  'src/memory/log/lock.ts': { count: 1, why: 'back-off between attempts at the lock, within its deadline' },
  'src/memory/sync/git.ts': { count: 1, why: "a git call of a memory sync ends at the sync's deadline (20 s in the background)" },
  'src/sessions/capture-marker.ts': { count: 1, why: 'poll of a marker file, with a deadline' },
  'src/tools/mcp/manager.ts': { count: 2, why: 'limits on server start and on waiting for servers' },
  'src/tools/mcp/transport.ts': { count: 2, why: 'limit on a close; poll until the process group is gone, with a deadline' },
  'src/tools/sandbox.ts': { count: 1, why: "limit on a sandbox probe's run" },
  'src/tools/shell.ts': { count: 2, why: "the command's time limit, then SIGKILL after SIGTERM's grace period" },
};

function sources(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.(ts|tsx|cjs|mjs|js)$/.test(n)) out.push(p);
  }
  return out;
}

/** Code only: comments out, so a comment naming a timer does not count. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const files = [...sources(join(root, 'src')), ...sources(join(root, 'bin'))].map((p) => ({
  rel: p.slice(root.length),
  text: code(readFileSync(p, 'utf8')),
}));

describe('run-time flags and timers', () => {
  it('no production file sets V8 flags at run time or forces a garbage collection', () => {
    const offenders = files.filter((f) => /setFlagsFromString|\bglobal(This)?\.gc\s*\(|--expose-gc/.test(f.text)).map((f) => f.rel);
    expect(offenders).toEqual([]);
  });

  it('every setTimeout / setInterval in production code is a reviewed limit, throttle, back-off or poll', () => {
    const found: Record<string, number> = {};
    for (const f of files) {
      const n = (f.text.match(/\bset(Timeout|Interval)\s*\(/g) ?? []).length;
      if (n > 0) found[f.rel] = n;
    }
    const reviewed = Object.fromEntries(Object.entries(REVIEWED).map(([k, v]) => [k, v.count]));
    expect(found).toEqual(reviewed);
  });

  it('the scan sees timers and flags where they are (it can fail)', () => {
    expect(code('x(); // setTimeout(a, 1)\n/* v8.setFlagsFromString */')).not.toMatch(/setTimeout|setFlags/);
    expect((code("setTimeout(() => f(), 50); const u = 'http://x';").match(/\bset(Timeout|Interval)\s*\(/g) ?? []).length).toBe(1);
  });
});
