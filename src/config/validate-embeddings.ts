/** `memory.recall.embeddings`: the server that embeds items and messages for hybrid recall (docs/recall-embeddings.md). */
import type { Checker } from './checker';
import type { EmbeddingsConfig, ModelPreset } from './types';

export const EMBED_TIMEOUT_MS = 300;
export const EMBED_MIN_SIMILARITY = 0.5;

export function validateEmbeddings(c: Checker, v: unknown, models: Record<string, ModelPreset>): EmbeddingsConfig {
  const e = c.object('memory.recall.embeddings', v, ['model', 'preset', 'timeoutMs', 'minSimilarity', 'dimensions']);
  const model = c.str('memory.recall.embeddings.model', e.model, { nonEmpty: true });
  const preset = c.optStr('memory.recall.embeddings.preset', e.preset);
  if (preset !== undefined && !(preset in models))
    c.fail('memory.recall.embeddings.preset', `one of the presets in models (${Object.keys(models).join(', ')})`, preset);
  return {
    model,
    ...(preset !== undefined && { preset }),
    ...(e.dimensions !== undefined && { dimensions: c.int('memory.recall.embeddings.dimensions', e.dimensions, 1, 65_536) }),
    timeoutMs: e.timeoutMs === undefined ? EMBED_TIMEOUT_MS : c.int('memory.recall.embeddings.timeoutMs', e.timeoutMs, 1, 60_000),
    minSimilarity:
      e.minSimilarity === undefined ? EMBED_MIN_SIMILARITY : c.num('memory.recall.embeddings.minSimilarity', e.minSimilarity, -1, 1),
  };
}
