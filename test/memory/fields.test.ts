/**
 * The records the field table (src/memory/log/fields.ts) makes: key order as written before it
 * existed, and what a hostile writer or file can get in — undeclared fields dropped, declared ones
 * of the wrong type dropped (sync, import) or the line refused (memory.jsonl).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ITEM_FIELDS } from '../../src/memory/log/fields';
import { loadIdentity } from '../../src/memory/log/identity';
import { parseLines } from '../../src/memory/log/parse';
import { carriedOver, newItem } from '../../src/memory/log/records';
import { exportJsonl, parseImport } from '../../src/memory/porting/transfer';
import { parseWireLine, wireItem } from '../../src/memory/sync/wire';
import type { MemoryItem } from '../../src/memory/types';

const UID = '01KRHESEG09T6B4X7Z1K5N0R2D';
const OLD = '01KRHB2Q4R5YV0A8C3M7XJZQ1N';
const TS = '2026-05-13T20:00:00.000Z';

describe('the field table', () => {
  it('a new item is written id, uid, hlc, ts, kind, content, then the fields in the order they always were', async () => {
    await loadIdentity();
    const it = newItem(7, new Date(TS), 'fact', 'x', {
      from: 'agent:claude',
      replaces: OLD,
      private: true,
      pinned_at: TS,
      pinned: true,
      scope: 'git:github.com/acme/shop',
      source: 's1',
      keys: ['k'],
      tags: ['t'],
    });
    expect(Object.keys(it)).toEqual([
      'id',
      'uid',
      'hlc',
      'ts',
      'kind',
      'content',
      'tags',
      'keys',
      'source',
      'scope',
      'pinned',
      'pinned_at',
      'private',
      'replaces',
      'from',
    ]);
    // Empty values, a pin time without a pin and an origin of here are not written.
    expect(newItem(8, new Date(TS), 'fact', 'y', { tags: [], source: '', pinned_at: TS, from: 'here' })).not.toHaveProperty('tags');
    expect(Object.keys(newItem(8, new Date(TS), 'fact', 'y', { tags: [], source: '', pinned_at: TS, from: 'here' }))).toHaveLength(6);
  });

  it('an edit keeps tags, keys, source, scope, privacy and the pin; a supersede keeps scope, privacy and the pin', () => {
    const old: MemoryItem = {
      id: 1,
      ts: TS,
      kind: 'fact',
      content: 'x',
      tags: ['t'],
      keys: ['k'],
      source: 's',
      scope: 'id:p',
      private: true,
      from: 'team:bob',
      via: 'b',
    };
    const at = Date.parse(TS);
    expect(carriedOver({ ...old, uid: OLD }, at, true)).toEqual({
      tags: ['t'],
      keys: ['k'],
      source: 's',
      scope: 'id:p',
      pinned: true,
      pinned_at: TS,
      private: true,
      replaces: OLD,
    });
    expect(carriedOver({ ...old, uid: OLD }, undefined, false)).toEqual({ scope: 'id:p', private: true, replaces: OLD });
  });

  it('memory.jsonl refuses a line whose declared field has the wrong type, and keeps undeclared fields', () => {
    const reason = (extra: object) => {
      const e = parseLines(JSON.stringify({ id: 1, ts: TS, kind: 'fact', content: 'x', ...extra }), 1, false)[0]!;
      return e.type === 'bad' ? e.reason : e.type;
    };
    expect(reason({ tags: [1] })).toBe('tags must be a list of strings');
    expect(reason({ keys: 'k' })).toBe('keys must be a list of strings');
    expect(reason({ source: 3 })).toBe('source must be a string');
    expect(reason({ pinned: 'yes' })).toBe('pinned must be true or false (got "yes")');
    expect(reason({ private: 1 })).toBe('private must be true or false (got 1)');
    expect(reason({ replaces: 5 })).toBe('replaces must be a string (a uid)');
    expect(reason({ scope: 'relative/dir' })).toMatch(/got "relative\/dir"/);
    // A time, origin or name that is not one reads as absent: the line is used.
    expect(reason({ pinned_at: 'soon', from: 'nowhere', via: 4, mine: { any: 1 } })).toBe('item');
  });

  it('a writer line: undeclared and mistyped fields are dropped, the rest kept in the line’s order', () => {
    const line = JSON.stringify({
      evil: 1,
      content: 'x',
      id: 99,
      uid: UID,
      target: 3,
      kind: 'fact',
      ts: TS,
      private: true,
      via: 'me',
      tags: ['a', 2],
      keys: ['k'],
      source: 's',
      pinned: 'yes',
      pinned_at: TS,
      replaces: 'not a uid!',
      from: 'here',
      constructor: 'x',
    });
    const p = parseWireLine(line);
    expect(p).toEqual({
      record: { content: 'x', uid: UID, hlc: expect.stringMatching(/^\d{13}-\d{4}$/), kind: 'fact', ts: TS, keys: ['k'], source: 's' },
    });
    expect(Object.keys((p as { record: object }).record)).toEqual(['content', 'uid', 'hlc', 'kind', 'ts', 'keys', 'source']);
    const pinned = parseWireLine(
      JSON.stringify({ uid: UID, ts: TS, kind: 'pref', content: 'y', pinned: true, pinned_at: 'soon', replaces: OLD, from: 'team:bob' }),
    );
    expect(pinned).toEqual({
      record: { uid: UID, hlc: expect.any(String), ts: TS, kind: 'pref', content: 'y', pinned: true, replaces: OLD, from: 'team:bob' },
    });
    expect(parseWireLine(JSON.stringify({ uid: UID, ts: TS, kind: 'fact', content: 'x', scope: '/home/me/p' }))).toEqual({
      bad: 'scope is not a project identity',
    });
  });

  it('an item sent: no id, privacy or via; its origin said; a scope only as the caller made it', () => {
    const it: MemoryItem = {
      id: 4,
      uid: UID,
      hlc: '1778702400000-0001',
      ts: TS,
      kind: 'fact',
      content: 'x',
      tags: ['t'],
      scope: '/home/me/p',
      pinned: true,
      pinned_at: TS,
      private: true,
      replaces: OLD,
      via: 'laptop',
    };
    const w = wireItem(it, 'git:github.com/acme/shop');
    expect(Object.entries(w)).toEqual(
      Object.entries({
        uid: UID,
        hlc: '1778702400000-0001',
        ts: TS,
        kind: 'fact',
        content: 'x',
        tags: ['t'],
        scope: 'git:github.com/acme/shop',
        pinned: true,
        pinned_at: TS,
        replaces: OLD,
        from: 'machine:laptop',
      }),
    );
    expect(wireItem(it, undefined)).not.toHaveProperty('scope');
  });

  it('an export keeps privacy and the pin, not replaces, via or undeclared fields; its import reads them back (not the origin: the importer names the file)', () => {
    const it = {
      id: 4,
      uid: UID,
      ts: TS,
      kind: 'fact',
      content: 'x',
      tags: ['t'],
      private: true,
      replaces: OLD,
      via: 'laptop',
      mine: 1,
    } as MemoryItem;
    const text = exportJsonl([it], () => true, new Date(TS));
    const line = JSON.parse(text.split('\n')[1]!) as object;
    expect(line).toEqual({ id: 4, kind: 'fact', content: 'x', ts: TS, tags: ['t'], pinned: true, private: true, from: 'machine:laptop' });
    expect(parseImport(text).items).toEqual([{ kind: 'fact', content: 'x', ts: TS, tags: ['t'], pinned: true, private: true }]);
  });

  it('docs/memory-file.md names every declared field', () => {
    const doc = readFileSync('docs/memory-file.md', 'utf8');
    const items = /\*\*Items\*\* `\{([^}]*)\}`/.exec(doc)![1]!;
    const named = items.split(',').map((f) => f.trim().replace(/\?$/, ''));
    expect(named).toEqual(['id', 'uid', 'hlc', 'ts', 'kind', 'content', ...Object.keys(ITEM_FIELDS)]);
  });
});
