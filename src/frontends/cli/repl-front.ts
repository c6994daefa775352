/**
 * The REPL started from the command line: its first frame (before the UI modules load), then Ink.
 * Shared by the full CLI (main.ts) and the plain `aish` entry (repl-entry.ts), which skips
 * commander and loads the UI from a separate bundle (repl-ui-entry.ts).
 */
import { existsSync } from 'node:fs';
import { resolvePreset } from '../../broker/presets';
import type { Setup } from '../../config/setup';
import { composeSystemPrompt } from '../../context/system-prompt';
import { messageTokens } from '../../context/tokens';
import type { EngineOptions } from '../../core/options';
import type { StatusInfo } from '../../core/status';
import { inboxPath } from '../../memory/inbox-path';
import { preloadMemory, type PreloadResult } from '../../memory/preload';
import { memoryPreloadRequest } from '../../memory/startup';
import { tildify } from '../../util/paths';
import { drawFirstFrame, type FirstFrame } from '../repl/first-frame';

/**
 * Start reading memory (in dist/memory-worker.js, beside the entry that passes `workerUrl`): each
 * front end calls it at its own best moment — the REPL after its first frame.
 */
export function memoryPreloader(s: Setup, memoryOn: boolean, workerUrl: URL): () => Promise<PreloadResult> | undefined {
  return () => (memoryOn ? preloadMemory(memoryPreloadRequest(s.config, s.paths.memoryPath), workerUrl) : undefined);
}

/** What the status line will say before anything has loaded; a bad -m fails here, before drawing. */
export function initialStatus(s: Setup, o: { model?: string | undefined; memory?: boolean | undefined }): StatusInfo {
  const preset = resolvePreset(s.config, o.model ?? s.config.defaultModel);
  const memoryOn = o.memory !== false && s.config.memory !== false;
  return {
    preset: preset.name,
    model: preset.model,
    cwd: tildify(process.cwd()),
    // No memory file (nor inbox) yet: nothing to inject, known without loading anything.
    memoryInjected: !memoryOn ? 'off' : existsSync(s.paths.memoryPath) || existsSync(inboxPath(s.paths.memoryPath)) ? null : 0,
    inbox: 0,
    tokens: messageTokens({ role: 'system', content: composeSystemPrompt({ memoryItems: [] }) }),
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
export async function runReplFront(s: Setup, opts: EngineOptions, preload: () => Promise<PreloadResult> | undefined, loadUi: () => Promise<RunRepl>): Promise<number> {
  const frame = drawFirstFrame(initialStatus(s, opts));
  try {
    return await (await loadUi())(s, { ...opts, memoryPreload: preload() }, frame);
  } catch (err) {
    frame.abandon();
    throw err;
  }
}
