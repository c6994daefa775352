/** `:memory log` and `:memory undo RECEIPT`: what arrived from elsewhere, and taking one arrival back (memory/receipts/receipt-undo.ts). */
import { lockTimingFromEnv } from '../memory/log/lock';
import { formatReceipts, listReceipts, undoReceipt } from '../memory/receipts/receipt-undo';
import { ReceiptFile } from '../memory/receipts/receipts';
import { UsageError } from '../util/errors';
import { info, type SubCommand } from './types';

function receiptsOf(path: string): ReceiptFile {
  return new ReceiptFile(path, { lock: lockTimingFromEnv() });
}

export const logSubcommand: SubCommand<'memory'> = {
  name: 'log',
  help: 'what arrived from elsewhere (sync, team, import, agents), newest first; :memory undo RECEIPT takes one back',
  run: async ({ memory, argv }) => {
    if (argv.length > 0) throw new UsageError('usage: :memory log');
    await memory.ready();
    return { output: formatReceipts(listReceipts(receiptsOf(memory.path))).map((l) => info(l)) };
  },
};

export const undoSubcommand: SubCommand<'memory'> = {
  name: 'undo',
  args: 'RECEIPT',
  help: 'put back what an arrival (:memory log) forgot or replaced, and forget what it added; the undo syncs',
  complete: ({ memory }, argv, word) => {
    if (argv.length > 0) return [];
    try {
      return listReceipts(receiptsOf(memory.path))
        .map((r) => r.id)
        .filter((id) => id.startsWith(word));
    } catch {
      return []; // an unreadable file completes nothing; :memory log says why
    }
  },
  run: async ({ memory, argv }) => {
    if (argv.length !== 1) throw new UsageError('usage: :memory undo RECEIPT (the r… id from :memory log)');
    await memory.ready();
    const text = await undoReceipt(memory.store(), receiptsOf(memory.path), argv[0], () => new Date());
    memory.reselect();
    return { output: [info(text)] };
  },
};
