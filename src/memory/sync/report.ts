/** The one line a sync ends with, and its `--json` form. */
import { oneLine } from '../../util/text';
import { plural } from '../../util/time';
import type { Waiting } from './apply';
import type { HeldBack } from './outgoing';

export interface SyncReport {
  sent: number;
  received: number;
  /** Other writers that sent anything received. */
  machines: number;
  conflicts: number;
  /** Items here forgotten by what was received. */
  forgotten: number;
  held: HeldBack;
  dryRun: boolean;
  /** This data directory was found to be a copy of another machine's: it writes under a new id now. */
  newWriter?: string;
  /** Received records stamped ahead of this machine's clock, taken at this clock instead. */
  future?: number;
  /** The mass-forget guard refused what was received: nothing of it was written. */
  refused?: { forgets: number; active: number };
  /** Received records the guards keep in review (guard.ts). */
  waiting?: Waiting[];
}

/** `30 forgets from laptop wait in :memory review` — one phrase per writer and reason. */
function waitingLine(w: readonly Waiting[], dryRun = false): string {
  const what = {
    forgets: 'forget',
    edit: 'edit of an item written here',
    flood: 'new item',
    unpins: 'unpin of an item written here',
  } as const;
  const many = { edit: 'edits of items written here', unpins: 'unpins of items written here' } as const;
  const phrase = (x: Waiting) =>
    `${x.n} ${x.n === 1 ? what[x.why] : x.why === 'edit' || x.why === 'unpins' ? many[x.why] : `${what[x.why]}s`} from ${oneLine(x.name, 60)}`;
  return `${w.map(phrase).join(', ')} ${dryRun ? 'would wait' : w.length === 1 && w[0]!.n === 1 ? 'waits' : 'wait'} in :memory review`;
}

export function reportLine(r: SyncReport): string {
  const from = r.received > 0 ? ` from ${plural(r.machines, 'machine')}` : '';
  // A dry run says what a sync would do, never what it did.
  let line = r.dryRun ? `would send ${r.sent}, receive ${r.received}${from}` : `synced: sent ${r.sent}, received ${r.received}${from}`;
  if (r.conflicts > 0) line += `, ${plural(r.conflicts, 'conflict')} — see :memory review`;
  if (r.future)
    line += `, ${plural(r.future, 'record')} from the future ${r.dryRun ? 'to be taken' : 'taken'} at this clock (another machine's clock is ahead)`;
  if (r.waiting?.length) line += `; ${waitingLine(r.waiting, r.dryRun)}`;
  const held = r.held.private + r.held.secret + r.held.local;
  if (held > 0) {
    const why = [
      r.held.private && `${r.held.private} private`,
      r.held.secret && `${r.held.secret} with secrets`,
      r.held.local && `${r.held.local} scoped to a path`,
    ].filter(Boolean);
    line += `; ${r.dryRun ? 'would keep' : 'kept'} on this machine: ${why.join(', ')}`;
  }
  return line;
}
