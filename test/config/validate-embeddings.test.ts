/** `memory.recall.embeddings`: defaults, and a one-line error naming the key for each mistake. */
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/validate';

const recall = (embeddings: unknown) => validateConfig({ memory: { recall: { embeddings } } }, '/x/config.ts');
const embeddingsOf = (embeddings: unknown) => {
  const m = recall(embeddings).memory;
  return m ? m.recall.embeddings : undefined;
};

describe('memory.recall.embeddings', () => {
  it('is absent unless set: recall by words alone', () => {
    const m = validateConfig({}, '/x/config.ts').memory;
    expect(m && m.recall.embeddings).toBeUndefined();
  });

  it('takes a model, an optional preset, and fills the time limit and the similarity floor', () => {
    expect(embeddingsOf({ model: 'nomic-embed-text' })).toEqual({ model: 'nomic-embed-text', timeoutMs: 300, minSimilarity: 0.5 });
    expect(embeddingsOf({ model: 'm', preset: 'deep', timeoutMs: 800, minSimilarity: 0.3 })).toEqual({
      model: 'm',
      preset: 'deep',
      timeoutMs: 800,
      minSimilarity: 0.3,
    });
  });

  it.each([
    [{}, 'memory.recall.embeddings.model must be a non-empty string (got nothing)'],
    [{ model: '' }, 'memory.recall.embeddings.model must be a non-empty string'],
    ['text-embedding-3-small', 'memory.recall.embeddings must be an object'],
    [{ model: 'm', preset: 'nope' }, 'memory.recall.embeddings.preset must be one of the presets in models (fast, deep)'],
    [{ model: 'm', timeoutMs: 0 }, 'memory.recall.embeddings.timeoutMs must be'],
    [{ model: 'm', minSimilarity: 2 }, 'memory.recall.embeddings.minSimilarity must be'],
    [{ model: 'm', dims: 3 }, 'unknown key memory.recall.embeddings.dims'],
    [{ model: 'm', dimensions: 0.5 }, 'memory.recall.embeddings.dimensions must be'],
  ])('%j is refused: %s', (raw, message) => {
    let thrown: unknown;
    try {
      recall(raw);
    } catch (err) {
      thrown = err;
    }
    expect(String((thrown as Error).message)).toContain(message);
    expect(String((thrown as Error).message)).not.toContain('\n');
  });
});
