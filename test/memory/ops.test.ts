/** Memory operations as both front ends present them: the same words, and nothing written on a refusal. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseId, parseKind, parseText } from '../../src/commands/memory-door';
import { addItem, clearAll, compactFile, editItem, forgetItem } from '../../src/memory/ops';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const open = () => MemoryStore.open(join(tmpDir(), 'memory.jsonl'));

describe('memory operations', () => {
  it('add, forget, edit say what they did; refusals write nothing and name the listing command', async () => {
    const s = open();
    expect((await addItem(s, 'fact', 'uses pnpm')).text).toBe('added 1 (fact)');
    expect(await editItem(s, 1, 'uses yarn', ':memory list')).toEqual({ ok: true, changed: true, text: 'replaced 1 with 2 (fact)' });
    const before = readFileSync(s.path);
    expect(await forgetItem(s, 1, 'aish memory list')).toEqual({
      ok: false,
      changed: false,
      text: 'memory 1 is already forgotten; nothing written',
    });
    expect(await editItem(s, 9, 'x', 'aish memory list')).toEqual({
      ok: false,
      changed: false,
      text: 'no memory item 9; nothing written (see aish memory list)',
    });
    expect(readFileSync(s.path).equals(before)).toBe(true);
    expect(await forgetItem(s, 2, ':memory list')).toEqual({ ok: true, changed: true, text: 'forgot 2' });
  });

  it('clear asks with the count, keeps everything on no, and says so when empty', async () => {
    const s = open();
    expect((await clearAll(s, async () => true)).text).toBe('memory is already empty; nothing written');
    await addItem(s, 'fact', 'a');
    await addItem(s, 'pref', 'b');
    const counts: number[] = [];
    expect(await clearAll(s, async (n) => (counts.push(n), false))).toEqual({ ok: true, changed: false, text: 'kept all 2 items' });
    expect(s.items()).toHaveLength(2);
    expect(await clearAll(s, async (n) => (counts.push(n), true))).toEqual({ ok: true, changed: true, text: 'forgot 2 items' });
    expect(counts).toEqual([2, 2]);
    expect(s.items()).toEqual([]);
  });

  it('compact reports what it kept and dropped', async () => {
    const s = open();
    await addItem(s, 'fact', 'a');
    await addItem(s, 'fact', 'b');
    await forgetItem(s, 1, '');
    expect((await compactFile(s)).text).toBe('compacted memory.jsonl: kept 1 item, dropped 2 forgotten records');
  });

  it('argument parsing gives one-line usage errors that say what to do', () => {
    expect(parseKind('pref')).toBe('pref');
    expect(() => parseKind('note')).toThrow('unknown kind "note" — use fact, pref or context');
    expect(() => parseKind(undefined)).toThrow('missing kind — use fact, pref or context');
    expect(parseId('12', 'x')).toBe(12);
    expect(() => parseId('0x1', ':memory list')).toThrow('"0x1" is not a memory id — ids are whole numbers ≥ 1 (see :memory list)');
    expect(() => parseId(undefined, ':memory list')).toThrow('missing id');
    expect(parseText('  keep  spacing ', 'u')).toBe('keep  spacing');
    expect(() => parseText('  ', 'usage: :remember TEXT')).toThrow('nothing to remember — usage: :remember TEXT');
  });
});
