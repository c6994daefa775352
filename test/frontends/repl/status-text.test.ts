import { describe, expect, it } from 'vitest';
import { blankStatus, type StatusInfo } from '../../../src/core/status';
import { statusText } from '../../../src/frontends/repl/status-text';
import { stringWidth, truncateColumns } from '../../../src/util/width';

const status = (cwd: string): StatusInfo => ({
  ...blankStatus(),
  preset: 'local',
  model: 'm',
  cwd,
  memoryInjected: 3,
  tokens: 1200,
  budget: 32000,
  tokensExact: true,
});

describe('statusText', () => {
  it('fits the width in display columns', () => {
    for (const cwd of ['~/projects/aish', '~/プロジェクト/日本語のディレクトリ/もっと長い名前', '~/🎉🎉🎉/👨‍👩‍👧‍👦👨‍👩‍👧‍👦']) {
      for (const width of [20, 33, 40, 60]) {
        const text = statusText(status(cwd), width, truncateColumns);
        expect(stringWidth(text), `${cwd} @ ${width}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('is left whole when it fits and cut with … when not', () => {
    const full = statusText(status('~/a'), 200, truncateColumns);
    expect(full).toBe('local (m) │ ~/a │ mem 3 │ ctx 1.2k/32k');
    // Deliberately changed (issue 13): mem and ctx stay; the path and the model go first.
    expect(statusText(status('~/a'), 20, truncateColumns)).toBe('mem 3 │ ctx 1.2k/32k');
    expect(statusText(status('~/日本語'), 20, truncateColumns)).toBe('mem 3 │ ctx 1.2k/32k');
    expect(statusText(status('~/a'), 12, truncateColumns)).toBe('mem 3 │ ctx…');
  });

  it('at narrow widths shortens the path first, then the model, and keeps mem and ctx', () => {
    const s = { ...status('~/projects/work/aish'), preset: 'fast', model: 'gpt-4o-mini' };
    expect(statusText(s, 80, truncateColumns)).toBe('fast (gpt-4o-mini) │ ~/projects/work/aish │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(s, 55, truncateColumns)).toBe('fast (gpt-4o-mini) │ …/work/aish │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(s, 41, truncateColumns)).toBe('fast │ …/work/aish │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(s, 40, truncateColumns)).toBe('fast │ …/aish │ mem 3 │ ctx 1.2k/32k');
    expect(statusText(s, 35, truncateColumns)).toBe('fast │ mem 3 │ ctx 1.2k/32k');
    expect(statusText({ ...s, inbox: 2 }, 46, truncateColumns)).toBe('fast │ …/aish │ mem 3 │ inbox 2 │ ctx 1.2k/32k');
  });

  it('shows inbox N only when candidates wait', () => {
    expect(statusText({ ...status('~/a'), inbox: 4 }, 200, truncateColumns)).toBe('local (m) │ ~/a │ mem 3 │ inbox 4 │ ctx 1.2k/32k');
    expect(statusText({ ...status('~/a'), inbox: 0 }, 200, truncateColumns)).not.toContain('inbox');
  });
});
