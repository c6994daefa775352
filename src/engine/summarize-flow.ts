/**
 * `:memory summarize` (manifest §6, SPEC §4): the session log (not the live context) minus earlier
 * summarize turns goes to the summarizer preset; each `kind: text` line of the answer is offered as
 * a candidate, `keep? [y/N/edit]`. Secrets are shown and stored redacted; a candidate repeating an
 * active item is marked (and, like every candidate, skipped unless the user says y).
 */
import { resolvePreset } from '../broker/presets';
import type { CommandResult } from '../commands/types';
import { loadSession } from '../history/sessions';
import { redactSecrets } from '../memory/secrets';
import { buildTranscript, findDuplicate, parseCandidates, summarizeMessages } from '../memory/summarize';
import type { Engine } from './engine';

const info = (text: string) => ({ kind: 'info' as const, text });
const plural = (n: number) => `${n} candidate${n === 1 ? '' : 's'}`;

export async function summarizeSession(engine: Engine): Promise<CommandResult> {
  const host = engine.host;
  const path = engine.sessionPath;
  if (!path) return { output: [info('nothing to summarize yet — the session log is empty')] };
  const { text } = buildTranscript(loadSession(path).turns);
  if (!text.trim()) return { output: [info('nothing to summarize yet — the session log has no conversation')] };

  const mem = engine.config.memory;
  const preset = resolvePreset(engine.config, mem && mem.summarizerModel ? mem.summarizerModel : engine.preset.name, engine.opts.env);
  const result = await engine.cancellable(async (signal) => {
    host.liveStart('tool', `summarizing with ${preset.name} (${preset.model})`);
    try {
      return await engine.broker(preset).stream(summarizeMessages(text), { signal });
    } finally {
      host.liveEnd();
    }
  });
  if (result.interrupted) return { output: [info('summarize cancelled; nothing added')] };
  // Logged so the session is complete, and tagged so the next summarize does not feed on it (R-C2).
  engine.appendLog({ role: 'assistant', content: result.content, meta: 'summarize' });

  const candidates = parseCandidates(result.content);
  if (candidates.length === 0) return { output: [info('the model proposed nothing worth remembering'), info('[aish] memory: added 0 candidates')] };

  const store = engine.store();
  store.reload();
  const active = [...store.items()];
  let added = 0;
  for (const [i, c] of candidates.entries()) {
    const red = redactSecrets(c.content);
    const dup = findDuplicate({ kind: c.kind, content: red.text }, active);
    const notes = [red.found.length ? `redacted: ${[...new Set(red.found)].join(', ')}` : '', dup ? `duplicates memory ${dup.id} — skip it?` : ''].filter(Boolean);
    host.print(info(`[memory] candidate ${i + 1}/${candidates.length} (${c.kind}): ${red.text}${notes.length ? `  (${notes.join('; ')})` : ''}`));
    const answer = await host.ask('keep? [y/N/edit] ');
    if (answer === null) break; // nobody to ask any more (end of input): keep nothing further
    const a = answer.trim().toLowerCase();
    let content: string | null = null;
    if (a === 'y' || a === 'yes') content = red.text;
    else if (a === 'e' || a === 'edit') {
      const edited = await host.ask('edit: ', { initial: red.text });
      if (edited && edited.trim()) content = edited.trim();
    }
    if (!content) continue;
    const item = await store.add(c.kind, content, engine.sessionId ? { source: `session:${engine.sessionId}` } : {});
    active.unshift(item);
    added++;
  }
  engine.reselectMemory();
  return { output: [info(`[aish] memory: added ${plural(added)}`)] };
}
