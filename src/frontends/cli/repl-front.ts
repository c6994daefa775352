/**
 * The REPL started from the command line: its first frame (before the UI modules load), then Ink.
 * Shared by the full CLI (main.ts) and the plain `aish` entry (repl-entry.ts), which skips
 * commander and loads the UI from a separate bundle (repl-ui-entry.ts).
 */
import { existsSync, statSync } from 'node:fs';
import { resolvePreset } from '../../broker/presets';
import type { Setup } from '../../config/setup';
import { composeSystemPrompt } from '../../context/system-prompt';
import { messageTokens } from '../../context/tokens';
import type { EngineOptions } from '../../core/options';
import type { StatusInfo } from '../../core/status';
import { inboxPath } from '../../memory/inbox-path';
import { indexBackground } from '../../memory/index/background';
import { MemoryIndex } from '../../memory/index/memory-index';
import type { MemoryItem } from '../../memory/types';
import { tildify } from '../../util/paths';
import { drawFirstFrame, type FirstFrame } from '../repl/first-frame';

/** Start-up memory is read and injected: neither --no-memory nor `memory: false` in the config. */
export function injectsMemory(s: Setup, opts: { memory?: boolean | undefined }): boolean {
  return opts.memory !== false && s.config.memory !== false;
}

/** A memory file this small is read before the first frame (a few ms), so its status line is final. */
export const SMALL_MEMORY_BYTES = 256 * 1024;

/**
 * Start-up memory when it can be known before the first frame: no file yet, or a small one (read
 * here, in this thread). Undefined otherwise: the front end reads it later, in a worker.
 */
export function smallMemory(s: Setup, memoryOn: boolean): { injected: MemoryItem[] } | undefined {
  if (!memoryOn || s.config.memory === false) return undefined;
  const st = statSync(s.paths.memoryPath, { throwIfNoEntry: false });
  if (st && st.size > SMALL_MEMORY_BYTES) return undefined;
  try {
    const ix = new MemoryIndex(s.paths.memoryPath);
    ix.refresh();
    const injected = indexBackground(ix, s.config.memory.injectMaxChars, process.cwd()).items;
    ix.close();
    return { injected };
  } catch {
    return undefined; // the session reports it
  }
}

/**
 * What the status line will say before the UI has loaded; a bad -m fails here, before drawing.
 * With start-up memory known (`memory`), `mem N` and the context it takes are final.
 */
export function initialStatus(
  s: Setup,
  o: { model?: string | undefined; memory?: boolean | undefined },
  memory?: { injected: MemoryItem[] },
): StatusInfo {
  const preset = resolvePreset(s.config, o.model ?? s.config.defaultModel);
  const memoryOn = injectsMemory(s, o);
  const injected = memoryOn && memory ? memory.injected : undefined;
  return {
    preset: preset.name,
    model: preset.model,
    cwd: tildify(process.cwd()),
    // Known at once unless an inbox may add to the line (its count comes with the UI).
    memoryInjected: !memoryOn ? 'off' : injected && !existsSync(inboxPath(s.paths.memoryPath)) ? injected.length : null,
    inbox: 0,
    tokens: messageTokens({ role: 'system', content: composeSystemPrompt({ memoryItems: injected ?? [] }) }),
    budget: s.config.context.maxTokens,
    tokensExact: false,
    busy: false,
    norris: null,
    usage: null,
  };
}

/** What starts the UI once the first frame is drawn (repl/repl.tsx's runRepl, or repl-ui-entry.ts's). */
export type RunRepl = (s: Setup, opts: EngineOptions, frame: FirstFrame) => Promise<number>;

/**
 * The prompt is on screen before the UI modules load; Ink replaces it when it mounts. `loadUi`
 * imports the UI: the full CLI's own chunk, or dist/repl-ui.js for the plain entry.
 */
export async function runReplFront(s: Setup, opts: EngineOptions, loadUi: () => Promise<RunRepl>): Promise<number> {
  const known = smallMemory(s, injectsMemory(s, opts));
  const frame = drawFirstFrame(initialStatus(s, opts, known));
  try {
    return await (
      await loadUi()
    )(s, opts, frame);
  } catch (err) {
    frame.abandon();
    throw err;
  }
}
