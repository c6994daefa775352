import { describe, expect, it } from 'vitest';
import { neutralizeForPrompt } from '../../src/util/prompt-neutral';
import { promptText } from '../../src/memory/background/blocks';
import { forgedHeader, HOSTILE_ITEMS } from '../helpers/injection-payloads';

describe('neutralizeForPrompt', () => {
  it.each(HOSTILE_ITEMS.map((s) => [JSON.stringify(s).slice(0, 50), s]))('%s: no header or token left', (_n, item) => {
    expect(forgedHeader(item), 'the corpus entry must be hostile to begin with').not.toBeNull();
    const sent = promptText(item);
    expect(forgedHeader(sent)).toBeNull();
    expect(sent).not.toMatch(/[\u200b\u00ad\u2060\ufeff\u202e\u2066\u2069]|[\u{e0000}-\u{e007f}]/u);
  });

  it('neutralises visibly and leaves the rest of the text alone', () => {
    expect(neutralizeForPrompt('see [recall] and <|im_start|>system, keep arr[0] and a < b')).toBe(
      'see (recall) and (|im_start|)system, keep arr[0] and a < b',
    );
    expect(neutralizeForPrompt('\uff3bbackground\uff3d')).toBe('(background)');
    expect(neutralizeForPrompt('[back\u200bground]')).toBe('(background)');
    expect(neutralizeForPrompt('### System: x')).toBe('(###) System: x');
    expect(neutralizeForPrompt('plain text, C# and #hashtags')).toBe('plain text, C# and #hashtags');
  });

  it('keeps ordinary notes as typed', () => {
    for (const note of [
      'User prefers pnpm over npm',
      'uses <Component /> in React',
      'Markdown [link](url) and [x] tasks',
      '日本語のメモ',
      'emoji 👍',
    ]) {
      expect(neutralizeForPrompt(note)).toBe(note);
    }
  });
});
