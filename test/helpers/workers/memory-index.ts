/**
 * A real process using memory.jsonl through its index. Modes:
 *   add  — `count` adds as `aish memory add` does them (addThroughIndex), printing `ok <id>` after each
 *   read — reads through the index until it sees `until` items, printing `n <items> <maxId>` per
 *          read, and `bad <why>` when an answer disagrees with a full read of the same bytes
 */
import { indexBackground } from '../../../src/memory/index/background';
import { addThroughIndex } from '../../../src/memory/index/add';
import { MemoryIndex } from '../../../src/memory/index/memory-index';

interface Args {
  mode: 'add' | 'read';
  path: string;
  count?: number;
  tag?: string;
  until?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const say = (line: string) => process.stdout.write(line + '\n');

if (args.mode === 'add') {
  for (let i = 0; i < (args.count ?? 1); i++) {
    try {
      const r = await addThroughIndex(args.path, 'fact', `${args.tag ?? 'w'}-${i}`, {}, { notice: () => {}, lock: { waitMs: 30_000 } });
      say(r.changed ? `ok ${r.item.id}` : `dup ${r.item.id}`);
    } catch (err) {
      say(`err ${(err as Error).message}`);
      process.exitCode = 1;
    }
  }
} else {
  const ix = new MemoryIndex(args.path);
  for (let total = 0; total < (args.until ?? 0);) {
    ix.refresh();
    const c = ix.counts();
    total = c.total;
    // Every item the index names can be read back from memory.jsonl, and is that item.
    const bg = indexBackground(ix, 1_000_000, '/');
    const named = bg.items.length + [...bg.overBudget()].length;
    if (named !== total) say(`bad background names ${named} of ${total}`);
    for (const it of bg.items) if (ix.get(it.id)?.content !== it.content) say(`bad item ${it.id}`);
    say(`n ${total} ${c.maxId}`);
  }
}
say('done');
