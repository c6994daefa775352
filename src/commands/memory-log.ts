/** `log` and `undo RECEIPT`: what arrived from elsewhere, and taking one arrival back (memory/receipts/receipt-undo.ts). */
import { UsageError } from '../util/errors';
import { info, value, verb, type MemoryVerb } from './memory-door';

export function logVerbs(): MemoryVerb[] {
  return [
    verb({
      name: 'log',
      args: '[--json]',
      help: 'what arrived from elsewhere (sync, team, import, agents), newest first; :memory undo RECEIPT takes one back',
      run: (m, a) => {
        if (a.words.length > 0) throw new UsageError('usage: :memory log [--json]');
        return m.receipts();
      },
      // The REPL shows the newest screenful; the command line every receipt.
      text: async (list, d) => ({ lines: (await import('../memory/receipts/receipt-undo')).formatReceipts(list, !d.repl).map(info) }),
      json: (list) => ({ lines: [], json: value(list) }),
    }),
    verb({
      name: 'undo',
      args: 'RECEIPT',
      params: [{ name: 'receipt', help: 'receipt id (r12), from aish memory log' }],
      help: 'put back what an arrival (:memory log) forgot or replaced, and forget what it added; the undo syncs',
      // An unreadable file completes nothing; :memory log says why.
      complete: (m, argv, word) => (argv.length > 0 ? [] : m.ids('receipts').filter((id) => id.startsWith(word))),
      run: (m, a, d) => {
        if (a.words.length !== 1) throw new UsageError(`usage: ${d.cmd} undo RECEIPT (the r… id from ${d.cmd} log)`);
        return m.undo(a.words[0]!);
      },
      text: (text) => ({ lines: [info(text)] }),
    }),
  ];
}
