/** `aish memory log [--json]` and `aish memory undo RECEIPT`: what `:memory log` / `:memory undo` do. */
import type { Setup } from '../../config/setup';
import { formatReceipts, listReceipts, undoReceipt } from '../../memory/receipts/receipt-undo';
import { ReceiptFile } from '../../memory/receipts/receipts';
import { escapeForJson } from '../../util/output-filter';
import { memoryOn, openStore, storeOptions } from './memory-store';
import { out } from './output';

export function memoryLog(s: Setup, json: boolean): void {
  memoryOn(s);
  const list = listReceipts(new ReceiptFile(s.paths.memoryPath, storeOptions()));
  if (json) out(escapeForJson(JSON.stringify(list, null, 2)));
  else for (const l of formatReceipts(list, true)) out(l);
}

export async function memoryUndo(s: Setup, id: string): Promise<void> {
  const store = openStore(s);
  out(await undoReceipt(store, new ReceiptFile(s.paths.memoryPath, storeOptions()), id, () => new Date()));
}
