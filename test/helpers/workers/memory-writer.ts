/**
 * A real process that writes memory through the real store. Modes:
 *   add  — `count` adds, printing `ok <id>` after each returns (i.e. after fdatasync)
 *   loop — adds forever with varied sizes, printing `ok <id>` (the crash test kills it)
 *   hold — takes the lock, prints `locked`, and keeps it until killed
 */
import { withLock } from '../../../src/memory/log/lock';
import { MemoryStore } from '../../../src/memory/store';

interface Args {
  mode: 'add' | 'loop' | 'hold';
  path: string;
  count?: number;
  tag?: string;
  waitMs?: number;
  staleMs?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const lock = { ...(args.waitMs !== undefined && { waitMs: args.waitMs }), ...(args.staleMs !== undefined && { staleMs: args.staleMs }) };

function say(line: string): void {
  process.stdout.write(line + '\n');
}

if (args.mode === 'hold') {
  await withLock(
    args.path,
    async () => {
      say('locked');
      setInterval(() => {}, 60_000); // keep the process (and its lock) alive until killed
      await new Promise(() => {});
    },
    { waitMs: 10_000, staleMs: args.staleMs ?? 10_000 },
  );
} else {
  const store = MemoryStore.open(args.path, { lock });
  const n = args.mode === 'add' ? (args.count ?? 1) : Infinity;
  for (let i = 0; i < n; i++) {
    // In loop mode vary the size (every 16th item up to 128 KiB) so a kill can land inside a large write.
    const pad = args.mode === 'loop' && i % 16 === 3 ? 'x'.repeat(Math.floor(Math.random() * 131_072)) : '';
    try {
      const item = await store.add('fact', `${args.tag ?? 'w'}-${i}${pad}`);
      say(`ok ${item.id}`);
    } catch (err) {
      say(`err ${(err as Error).message}`);
      process.exitCode = 1;
    }
  }
  say('done');
}
