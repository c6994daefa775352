import { appendFileSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Inbox, inboxPath } from '../../src/memory/review/inbox';
import type { NewCandidate } from '../../src/memory/review/inbox-types';
import { LockBusyError, withLock } from '../../src/memory/log/lock';
import { tmpDir } from '../helpers/tmp';

const cand = (content: string, session = 's1'): NewCandidate => ({ kind: 'fact', content, source: { session } });
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function fresh(): { memPath: string; inbox: Inbox } {
  const memPath = join(tmpDir(), 'data', 'memory.jsonl');
  return { memPath, inbox: Inbox.open(memPath, { now: () => new Date('2026-02-03T04:05:06Z') }) };
}

describe('inbox', () => {
  it('lives beside memory.jsonl', () => {
    expect(inboxPath('/x/y/memory.jsonl')).toBe('/x/y/inbox.jsonl');
  });

  it('adds candidates with ids 1, 2, … and lists them pending, oldest first; a private file in a private directory', async () => {
    const { memPath, inbox } = fresh();
    expect(inbox.pending()).toEqual([]);
    const added = await inbox.add([cand('uses node 20'), cand('prefers tabs')]);
    expect(added.map((c) => [c.id, c.content])).toEqual([
      [1, 'uses node 20'],
      [2, 'prefers tabs'],
    ]);
    expect(added[0]).toEqual({ id: 1, ts: '2026-02-03T04:05:06.000Z', kind: 'fact', content: 'uses node 20', source: { session: 's1' } });
    expect((await inbox.add([cand('third')]))[0]!.id).toBe(3);
    expect(inbox.pending().map((c) => c.id)).toEqual([1, 2, 3]);
    expect(inbox.pendingCount()).toBe(3);
    const path = inboxPath(memPath);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(lines(path)).toHaveLength(3);
  });

  it('leaves out text a pending candidate has, and text of the same session already decided', async () => {
    const { inbox } = fresh();
    await inbox.add([cand('Uses Node 20'), cand('old news', 's1')]);
    await inbox.decide(2, 'keep', 5);
    const again = await inbox.add([
      cand('uses  node 20', 's2'),
      cand('OLD news', 's1'),
      cand('old news', 's2'),
      cand('new', 's2'),
      cand('new', 's2'),
    ]);
    expect(again.map((c) => [c.id, c.content, c.source.session])).toEqual([
      [3, 'old news', 's2'],
      [4, 'new', 's2'],
    ]);
    expect(await inbox.add([cand('Uses Node 20')])).toEqual([]);
  });

  it('a candidate dropped in one session is not proposed again in a later one', async () => {
    const { memPath, inbox } = fresh();
    await inbox.add([cand('deploys on fridays', 's1'), cand('uses pnpm', 's1')]);
    await inbox.decide(1, 'drop');
    await inbox.decide(2, 'keep', 3);
    // A later session (a new process reading the same file) proposes both again.
    const later = Inbox.open(memPath);
    const added = await later.add([cand('Deploys on  Fridays', 's2'), cand('uses pnpm', 's2')]);
    expect(added.map((c) => [c.content, c.source.session])).toEqual([['uses pnpm', 's2']]);
    expect(later.pending().map((c) => c.content)).toEqual(['uses pnpm']);
  });

  it('decide: keep and drop take candidates out of pending; the first decision counts', async () => {
    const { memPath, inbox } = fresh();
    await inbox.add([cand('a'), cand('b'), cand('c')]);
    await inbox.decide(1, 'keep', 7);
    await inbox.decide(3, 'drop');
    await inbox.decide(3, 'keep', 9); // decided already: nothing written
    expect(inbox.pending().map((c) => c.id)).toEqual([2]);
    expect(inbox.decision(3)).toMatchObject({ action: 'drop' });
    const recs = lines(inboxPath(memPath));
    expect(recs.slice(3)).toEqual([
      { ts: '2026-02-03T04:05:06.000Z', review: 1, action: 'keep', item: 7 },
      { ts: '2026-02-03T04:05:06.000Z', review: 3, action: 'drop' },
    ]);
    expect(inbox.all()).toHaveLength(3);
  });

  it('sees what another Inbox (another process) appended; pendingCount re-reads only on a change', async () => {
    const { memPath, inbox } = fresh();
    const other = Inbox.open(memPath);
    expect(inbox.pendingCount()).toBe(0);
    await other.add([cand('from elsewhere')]);
    expect(inbox.pendingCount()).toBe(1);
    await other.decide(1, 'drop');
    expect(inbox.pendingCount()).toBe(0);
    expect((await inbox.add([cand('next')]))[0]!.id).toBe(2); // ids continue after the other's
  });

  it('pendingCount re-reads only when size, mtime or inode changed', async () => {
    const { memPath, inbox } = fresh();
    await inbox.add([cand('aaaa'), cand('bbbb')]);
    const path = inboxPath(memPath);
    const t = new Date('2026-01-01T00:00:00Z'); // whole seconds: utimes keeps them exactly
    utimesSync(path, t, t);
    expect(inbox.pendingCount()).toBe(2);
    // Same size, same mtime, same inode: taken as unchanged (not read again).
    const text = readFileSync(path, 'utf8');
    const broken =
      text.slice(0, text.indexOf('"bbbb"')).replace(/"kind":"fact"(?![\s\S]*"kind":"fact")/, '"kind":"fxct"') +
      text.slice(text.indexOf('"bbbb"'));
    expect(broken.length).toBe(text.length);
    writeFileSync(path, broken);
    utimesSync(path, t, t);
    expect(inbox.pendingCount()).toBe(2);
    expect(
      Inbox.open(memPath)
        .pending()
        .map((c) => c.content),
    ).toEqual(['aaaa']); // what a fresh read sees
    utimesSync(path, t, new Date(t.getTime() + 5000));
    expect(inbox.pendingCount()).toBe(1);
  });

  it('skips torn and hand-broken lines with warnings, and appends on a fresh line after a torn one', async () => {
    const { memPath, inbox } = fresh();
    await inbox.add([cand('good one')]);
    const path = inboxPath(memPath);
    appendFileSync(
      path,
      'not json\n{"id":"x","kind":"fact","content":"c","ts":"t","source":{"session":"s"}}\n[1]\n{"review":1,"action":"maybe"}\n{"id":9,"ts":"t","kind":"fa',
    );
    expect(inbox.pending().map((c) => c.content)).toEqual(['good one']);
    expect(inbox.warnings).toEqual([
      { line: 2, reason: 'not valid JSON' },
      { line: 3, reason: 'candidate without a valid id' },
      { line: 4, reason: 'not a JSON object' },
      { line: 5, reason: 'decision for 1: unknown action "maybe"' },
      { line: 6, reason: 'torn last line (not valid JSON, no newline at the end)' },
    ]);
    const [c] = await inbox.add([cand('after the tear')]);
    expect(c!.id).toBe(2);
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('"kind":"fa\n' + JSON.stringify(c) + '\n')).toBe(true);
    expect(inbox.pending().map((x) => x.content)).toEqual(['good one', 'after the tear']);
  });

  it('a file that is missing, empty or all blank lines is an empty inbox; reading creates nothing', () => {
    const { memPath, inbox } = fresh();
    expect(inbox.all()).toEqual([]);
    expect(existsSync(inboxPath(memPath))).toBe(false);
    expect(inbox.warnings).toEqual([]);
  });

  it('a busy lock is "inbox.jsonl held by another aish process"; nothing is written', async () => {
    const dir = tmpDir();
    const memPath = join(dir, 'memory.jsonl');
    writeFileSync(inboxPath(memPath), '');
    const inbox = Inbox.open(memPath, { lock: { waitMs: 50 } });
    await withLock(inboxPath(memPath), async () => {
      const err = await inbox.add([cand('x')]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockBusyError);
      expect((err as Error).message).toBe('inbox.jsonl held by another aish process; nothing written — try again in a moment');
      await expect(inbox.decide(1, 'drop')).rejects.toThrow(LockBusyError);
    });
    expect(readFileSync(inboxPath(memPath), 'utf8')).toBe('');
  });
});
