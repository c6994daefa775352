/**
 * The question before a prompt at a checkout naming a known project the user has not confirmed:
 * asked of a person once (yes: the items join [background] for that prompt; no: not asked again),
 * told in one line where nobody answers. A real session over a real memory file.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/config/types';
import type { OutputItem } from '../../src/core/host';
import { askAboutProject } from '../../src/core/project-ask';
import { forgetProjectIdentities } from '../../src/memory/project/project-identity';
import { MemorySession } from '../../src/memory/session';
import { realPath } from '../../src/util/paths';
import { tmpDir } from '../helpers/tmp';

beforeEach(() => forgetProjectIdentities());

function checkout(home: string): string {
  // An unpacked tarball naming the project by its id file alone (the e2e test does it with real git).
  const dir = join(home, 'evil');
  mkdirSync(join(dir, '.aish'), { recursive: true });
  writeFileSync(join(dir, '.aish', 'project-id'), 'shop\n');
  return dir;
}

function session(home: string, dir: string, more: object[] = []): MemorySession {
  const path = join(home, 'd', 'memory.jsonl');
  mkdirSync(join(home, 'd'), { recursive: true });
  const items = [
    { id: 1, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'shop secret: vault path secret/shop-7', scope: 'id:shop', private: true },
    { id: 2, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'prefers short answers' },
    ...more,
  ];
  writeFileSync(path, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  return new MemorySession(DEFAULT_CONFIG, path, { cwd: () => dir }, { notice: () => {}, changed: () => {} });
}

function host(answers: string[]) {
  const asked: string[] = [];
  const printed: OutputItem[] = [];
  return {
    asked,
    printed,
    interactive: true,
    ask: (q: string) => (asked.push(q), Promise.resolve(answers.shift() ?? null)),
    print: (o: OutputItem) => void printed.push(o),
  };
}

const contents = (s: MemorySession) => s.injected.map((i) => i.content);

describe('the question at an unconfirmed checkout', () => {
  it('yes: the project items apply from this prompt on, and nothing is asked again', async () => {
    const home = realPath(tmpDir());
    const s = session(home, checkout(home));
    await s.ready();
    expect(contents(s)).toEqual(['prefers short answers']);
    const h = host(['y']);
    await askAboutProject(s, h);
    expect(h.asked).toEqual(['this checkout is shop (.aish/project-id) — use its 1 memory here? [y/N] ']);
    expect(contents(s)).toContain('shop secret: vault path secret/shop-7');
    await askAboutProject(s, h);
    expect(h.asked).toHaveLength(1);
    s.close();
  });

  it('no (or Enter): nothing applies, and the question is not asked again; a script is told in one line, once', async () => {
    const home = realPath(tmpDir());
    const dir = checkout(home);
    const s = session(home, dir);
    await s.ready();
    const h = host(['']);
    await askAboutProject(s, h);
    await askAboutProject(s, h);
    expect(h.asked).toHaveLength(1);
    expect(contents(s)).toEqual(['prefers short answers']);
    s.close();

    const script = { ...host([]), interactive: false };
    const t = session(realPath(tmpDir()), dir);
    await t.ready();
    await askAboutProject(t, script);
    await askAboutProject(t, script);
    expect(script.asked).toEqual([]);
    expect(script.printed.map((p) => p.text)).toEqual([
      'memory: this checkout names shop (.aish/project-id), not confirmed here, so its 1 project memory is not used — confirm with: aish memory trust-project',
    ]);
    expect(contents(t)).toEqual(['prefers short answers']);
    t.close();
  });

  it('a checkout holding the user’s own path-scoped items (from before identities) is theirs: no question', async () => {
    const home = realPath(tmpDir());
    const dir = checkout(home);
    const s = session(home, dir, [{ id: 3, ts: '2026-01-01T00:00:00Z', kind: 'fact', content: 'old note here', scope: dir }]);
    await s.ready();
    expect(contents(s)).not.toContain('shop secret: vault path secret/shop-7');
    const h = host([]);
    await askAboutProject(s, h);
    expect(h.asked).toEqual([]);
    expect(h.printed).toEqual([]);
    expect(contents(s)).toContain('shop secret: vault path secret/shop-7');
    s.close();
  });
});
