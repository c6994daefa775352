/**
 * `sync/outbox.jsonl`: records taken from memory.jsonl and not yet pushed, replaced atomically.
 * Each line is the record as it will be pushed plus `local`, the item's id here (never pushed).
 */
import { rmSync } from 'node:fs';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { readTextIfExists } from '../../util/read-text';
import { parseWireLine, type WireRecord } from './wire';

export type Outgoing = WireRecord & { local?: number };

export function readOutbox(path: string): Outgoing[] {
  const out: Outgoing[] = [];
  for (const line of readTextIfExists(path).split('\n')) {
    if (!line) continue;
    const p = parseWireLine(line);
    if (!('record' in p)) continue;
    const local = /"local":(\d{1,15})[,}]/.exec(line)?.[1];
    out.push(local ? { ...p.record, local: Number(local) } : p.record);
  }
  return out;
}

/** The lines as they are pushed. */
export function outboxText(records: readonly Outgoing[]): string {
  return records
    .map((r) => {
      const { local: _local, ...wire } = r;
      return JSON.stringify(wire) + '\n';
    })
    .join('');
}

export function writeOutbox(path: string, records: readonly Outgoing[]): void {
  if (records.length === 0) rmSync(path, { force: true });
  else writeFileAtomicSync(path, records.map((r) => JSON.stringify(r) + '\n').join(''), { mode: 0o600 });
}
