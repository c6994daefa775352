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

  it('cuts a long sync note to the room left, keeping the preset and the directory', () => {
    const s = { ...status('~/projects/aish'), preset: 'fast', model: 'gpt-4o-mini' };
    const sync = `sync failed: cannot fetch /home/user/${'x'.repeat(120)}/remote.git: repository not found`;
    const text = statusText({ ...s, sync }, 100, truncateColumns);
    expect(text.startsWith('fast (gpt-4o-mini) │ ~/projects/aish │ mem 3 │ ctx 1.2k/32k │ sync failed: cannot fetch')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(stringWidth(text)).toBe(100);
    // narrower: the note goes down to `sync failed: …` before the path and the model give way
    expect(statusText({ ...s, sync }, 70, truncateColumns)).toBe('fast (gpt-4o-mini) │ …/aish │ mem 3 │ ctx 1.2k/32k │ sync failed: can…');
    expect(statusText({ ...s, sync }, 55, truncateColumns)).toBe('fast │ …/aish │ mem 3 │ ctx 1.2k/32k │ sync failed: ca…');
    expect(statusText({ ...s, sync: 'synced ↑1 ↓2' }, 200, truncateColumns)).toBe(
      'fast (gpt-4o-mini) │ ~/projects/aish │ mem 3 │ ctx 1.2k/32k │ synced ↑1 ↓2',
    );
  });

  it('shows inbox N only when candidates wait', () => {
    expect(statusText({ ...status('~/a'), inbox: 4 }, 200, truncateColumns)).toBe('local (m) │ ~/a │ mem 3 │ inbox 4 │ ctx 1.2k/32k');
    expect(statusText({ ...status('~/a'), inbox: 0 }, 200, truncateColumns)).not.toContain('inbox');
  });
});
