/** How the longer memory verbs' results read, in each door's words: list, inject, sync. */
import { basename } from 'node:path';
import { listedLeftOutLine } from '../memory/background/pins-left-out';
import { formatItemLines, formatSkipped } from '../memory/format';
import { UNLISTED_FIELDS } from '../memory/log/field-codec';
import { uidOf } from '../memory/log/identity';
import { originOf } from '../memory/origin';
import type { Injected, ItemListing, Listing } from '../memory/service';
import type { SyncReport } from '../memory/sync/report';
import { reportLine } from '../memory/sync/report';
import { formatTeamLines } from '../memory/team/team-format';
import { unreadableCount, type MemoryItem, type SkippedLine } from '../memory/types';
import { plural } from '../util/time';
import { info, warnLine, type Door, type Line, type Shown } from './memory-door';

const rows = (lines: string[]): Line => ({ kind: 'rows', text: lines.join('\n') });

/** The command line names every line it could not read (stderr); the REPL has `:memory inject` for that. */
export function skippedLines(r: { skipped: readonly SkippedLine[] }, d: Door): Line[] {
  return d.repl ? [] : formatSkipped(basename(d.path), r.skipped).map(warnLine);
}

/** `list [--here] [PAGE|--all]`: the REPL shows a screenful at a time, so 100k items do not flood it. */
export function listShown(l: Listing, page: number | 'all', d: Door): Shown {
  const team = formatTeamLines(l.team, l.cwd, new Date(), d.repl ? ':memory review' : 'aish memory review (or :memory review)');
  const teamWarnings = team.warnings.map((w) => warnLine(d.repl ? w : `warning: ${w}`));
  const unreadable = unreadableCount(l.skipped);
  const head = d.repl
    ? [
        ...teamWarnings,
        ...(unreadable ? [warnLine(`${basename(d.path)}: ${plural(unreadable, 'unreadable line')} (see :memory inject)`)] : []),
      ]
    : skippedLines(l, d);
  const tail = d.repl ? (team.lines.length ? [rows(team.lines)] : []) : [...teamWarnings, ...team.lines.map(info)];
  if (l.items.length === 0) {
    const empty = !d.repl
      ? `no memory items in ${d.path} — add one with: aish memory add fact "…"`
      : l.here && l.all
        ? `no memory item applies here (${plural(l.all, 'item')} in other projects)`
        : 'memory is empty — add with :remember TEXT';
    return { lines: [...head, info(empty), ...tail] };
  }
  const per = page === 'all' ? undefined : d.pageLines;
  const pages = per ? Math.ceil(l.items.length / per) : 1;
  const at = Math.min(Math.max(1, page === 'all' ? 1 : page), pages);
  const shown = per ? l.items.slice((at - 1) * per, at * per) : l.items;
  const shape = {
    now: new Date(),
    injected: l.injected,
    isPinned: l.isPinned,
    pinnedLeftOut: new Set(l.pinnedLeftOut),
    conflicted: l.conflicted,
  };
  const lines = formatItemLines(shown, { ...shape, ...(d.fit && { fit: d.fit }) });
  const what = l.here ? `${plural(l.items.length, 'item')} apply here (of ${l.all})` : plural(l.items.length, 'item');
  const n = l.injected.size;
  if (!d.repl) lines.push(`${what}; * = in [background] here (${n}, within ${l.budget} chars); the rest is recalled when relevant`);
  else if (l.injecting) lines.push(`${what}; * = in [background] now (${n}); the rest is recalled when relevant`);
  else lines.push(`${what}; injection is off (--no-memory)`);
  const over = listedLeftOutLine(l.pinnedLeftOut);
  if (over) lines.push(over);
  if (pages > 1)
    lines.push(`page ${at}/${pages}${at < pages ? ` — :memory list ${at + 1} for the next, :memory list --all for everything` : ''}`);
  return d.repl ? { lines: [...head, rows([...lines, ...team.lines])] } : { lines: [...head, ...lines.map(info), ...tail] };
}

/**
 * `list --json`: unreadable lines as warnings, the items as one JSON array, each as stored, told whole:
 * `uid` (its own, or the one derived for a record written before uids existed — the same on every
 * machine), `pinned: true` when pinned by a pin record or its own field (no `pinned` when unpinned;
 * a stored `pinned_at` with it), `scope` when it is a project item, `from`: where it came from
 * (origin.ts; `here` when written here).
 */
export function listJson(l: ItemListing, d: Door): Shown {
  const { items, isPinned } = l;
  const shape = (it: MemoryItem): object => {
    const { id, pinned: _own, pinned_at, ...rest } = it;
    for (const f of UNLISTED_FIELDS) delete (rest as Record<string, unknown>)[f];
    const out = { id, uid: uidOf(it), ...rest, from: originOf(it) };
    return isPinned(it) ? { ...out, pinned: true, ...(pinned_at !== undefined && { pinned_at }) } : out;
  };
  return { lines: formatSkipped(basename(d.path), l.skipped).map(warnLine), json: { items, shape } };
}

/** `:memory inject`: what a fresh load read, and what it could not. */
export function injectShown(r: Injected, d: Door): Shown {
  const file = basename(d.path);
  const lines = formatSkipped(file, r.skipped).map(warnLine);
  for (const t of r.dangling)
    lines.push(warnLine(`${file}:${t.line}: tombstone ${t.id} names id ${t.target}, which is no item — it forgets nothing`));
  const skipped = r.skipped.length ? `; ${plural(r.skipped.length, 'line')} skipped` : '';
  const items = plural(r.items, 'item');
  lines.push(
    info(
      r.injecting
        ? `memory: injected ${r.injected} of ${items} (budget ${r.budget} chars)${skipped}`
        : `memory: ${items} loaded; injection is off (--no-memory)`,
    ),
  );
  return { lines };
}

/** Notices first, then the line (or JSON); a sync whose received records were refused fails, naming --yes. */
function syncFrame(r: SyncReport, notes: readonly string[], d: Door): Shown {
  const lines = notes.map(warnLine);
  const copy = `this data directory is a copy of another machine's; it now writes as ${r.newWriter}`;
  if (r.newWriter) lines.push(warnLine(d.repl ? copy : `note: ${copy}`));
  const accept = d.repl ? ':memory sync --yes accepts it' : 'run aish memory sync --yes to accept';
  const error = r.refused
    ? `sync sent ${r.sent}, but what it received would forget ${r.refused.forgets} of ${r.refused.active} items here — nothing received; ${accept}`
    : undefined;
  return { lines, ...(error && { error }) };
}

export function syncShown(r: SyncReport, notes: readonly string[], d: Door): Shown {
  const s = syncFrame(r, notes, d);
  return s.error ? s : { lines: [...s.lines, info(d.repl ? `memory: ${reportLine(r)}` : reportLine(r))] };
}

export function syncJson(r: SyncReport, notes: readonly string[], d: Door): Shown {
  const value = {
    sent: r.sent,
    received: r.received,
    machines: r.machines,
    conflicts: r.conflicts,
    forgotten: r.forgotten,
    kept_local: r.held,
    dry_run: r.dryRun,
    ...(r.future && { future: r.future }),
    ...(r.refused && { refused: r.refused }),
    ...(r.waiting && { waiting: r.waiting }),
    ...(r.newWriter && { new_writer: r.newWriter }),
  };
  return { ...syncFrame(r, notes, d), json: { value, compact: true } };
}
