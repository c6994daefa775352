import { describe, expect, it } from 'vitest';
import type { StatusInfo } from '../../../src/core/status';
import { statusText } from '../../../src/frontends/repl/status-text';
import { stringWidth } from '../../../src/util/width';

const status = (cwd: string): StatusInfo => ({
  preset: 'local', model: 'm', cwd, memoryInjected: 3, tokens: 1200, budget: 32000, tokensExact: true, busy: false,
  norris: null, usage: null,
});

describe('statusText', () => {
  it('fits the width in display columns', () => {
    for (const cwd of ['~/projects/aish', '~/プロジェクト/日本語のディレクトリ/もっと長い名前', '~/🎉🎉🎉/👨‍👩‍👧‍👦👨‍👩‍👧‍👦']) {
      for (const width of [20, 33, 40, 60]) {
        const text = statusText(status(cwd), width);
        expect(stringWidth(text), `${cwd} @ ${width}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('is left whole when it fits and cut with … when not', () => {
    const full = statusText(status('~/a'), 200);
    expect(full).toBe('local (m) │ ~/a │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(status('~/a'), 20)).toBe('local (m) │ ~/a │ m…');
    expect(statusText(status('~/日本語'), 20)).toBe('local (m) │ ~/日本…');
  });
});
