/**
 * receipts.jsonl beside memory.jsonl (0600): one receipt per change that arrived from elsewhere — a
 * sync's records from one writer, a team acceptance, an import, an agent's accepted proposal — saying
 * what it added, forgot and replaced, and keeping the forgotten items as they were so `undo` can put
 * them back after a compaction dropped them. Appended under the file's lock (side-file.ts); an undo
 * appends an `undone` line. Bounded: past MAX receipts the oldest are dropped in one rewrite.
 */
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { uidOf } from '../log/identity';
import type { AddOptions } from '../log/records';
import { originOf, parseOrigin } from '../origin';
import { jsonObjectLines, SideFile, type SideFileOptions } from '../side-file';
import { isMemoryKind, type MemoryItem, type MemoryKind } from '../types';

const MAX = 1000;
const TEXTS = 3;

/** An item a receipt forgot or replaced, as it was (what undo writes back). */
export interface SavedItem {
  uid: string;
  kind: MemoryKind;
  content: string;
  tags?: string[];
  keys?: string[];
  scope?: string;
  pinned?: boolean;
  private?: boolean;
  /** Its origin (origin.ts) when not here: a restored item keeps saying where it came from. */
  from?: string;
}

export interface ReceiptDraft {
  /** An origin (origin.ts): `machine:laptop`, `team:bob`, `import:claude:CLAUDE.md`, `agent:x`. */
  from: string;
  added: string[];
  forgot: string[];
  /** [old uid, new uid]. */
  replaced: Array<[string, string]>;
  /** The first few texts added, for the log. */
  texts: string[];
  /** The items it forgot or replaced. */
  saved: SavedItem[];
  /**
   * Pins it changed here: [item uid, pinned after it, the uid of the pin record that changed it];
   * absent when none (receipts before pins had none; the record's uid is absent in those before it was kept).
   */
  pins?: Array<[string, boolean, string?]>;
  /** Records of the same arrival that wait in review instead (a sync's guards); absent when none. */
  held?: number;
}

export interface Receipt extends ReceiptDraft {
  id: string;
  at: string;
}

export interface Receipts {
  list: Receipt[];
  undone: Map<string, string>;
  /** Receipts marked undone because their undo on another machine arrived by sync (undone-elsewhere.ts). */
  elsewhere: Set<string>;
}

export function receiptsPath(memoryPath: string): string {
  return join(dirname(memoryPath), 'receipts.jsonl');
}

/** What an item looks like saved in a receipt. */
export function savedItem(it: MemoryItem, uid: string, pinned: boolean): SavedItem {
  const from = originOf(it);
  return {
    uid,
    kind: it.kind,
    content: it.content,
    ...(it.tags && it.tags.length > 0 && { tags: it.tags }),
    ...(it.keys && it.keys.length > 0 && { keys: it.keys }),
    ...(it.scope && { scope: it.scope }),
    ...(pinned && { pinned: true }),
    ...(it.private && { private: true }),
    ...(from !== 'here' && { from }),
  };
}

/** The add options that bring a saved item back as it was (`source` says why: an undo, a put-back). */
export function savedOptions(s: SavedItem, source: string): AddOptions {
  return {
    source,
    ...(s.tags && { tags: s.tags }),
    ...(s.keys && { keys: s.keys }),
    ...(s.scope && { scope: s.scope }),
    ...(s.pinned && { pinned: true }),
    ...(s.private && { private: true }),
    ...(s.from && { from: s.from }),
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** `uid`'s time part, then 80 bits hashed from it and `salt`: the same on every machine. */
function derivedUid(salt: string, uid: string): string {
  const h = createHash('sha256').update(`${salt}\0${uid}`).digest();
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD[h[i]! % 32];
  return `${uid.slice(0, 10).padEnd(10, '0')}${tail}`;
}

/**
 * The uid an item forgotten or replaced as `uid` comes back under when undone: the same on every
 * machine, so the same arrival undone on two machines restores one item, not two, and an undo
 * after the restored item was forgotten brings nothing back.
 */
export function restoredUid(uid: string): string {
  return derivedUid('aish-restored', uid);
}

/**
 * The uid of the forget an undo writes for an item it added as `uid`: other machines tell an undo
 * from a forget by hand by it (undone-elsewhere.ts), and two undos of one arrival write one forget.
 */
export function undoneUid(uid: string): string {
  return derivedUid('aish-undone', uid);
}

/**
 * The uid of the pin record an undo writes to put back the pin that the pin record `pinUid` changed,
 * given the record's own stamp: other machines, whose receipt names the same `pinUid`, tell that
 * undo from a pin by hand by it (undone-elsewhere.ts). Salted with the stamp, unlike a forget's: two
 * machines undoing the same arrival write two pin records, as two pins by hand would be, so no
 * machine drops one as already known and each decides the pin by the same stamps.
 */
export function undonePinUid(pinUid: string, hlc: string): string {
  return derivedUid(`aish-undone-pin\0${hlc}`, pinUid);
}

export function emptyDraft(from: string): ReceiptDraft {
  return { from, added: [], forgot: [], replaced: [], texts: [], saved: [] };
}

/** Note one added item's uid and text (the first few texts only). */
export function noteAdded(d: ReceiptDraft, uid: string, text: string): void {
  d.added.push(uid);
  if (d.texts.length < TEXTS) d.texts.push(text.slice(0, 200));
}

function strings(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}

function isSaved(v: unknown): v is SavedItem {
  const s = v as Partial<SavedItem> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.uid === 'string' &&
    isMemoryKind(s.kind) &&
    typeof s.content === 'string' &&
    (s.from === undefined || parseOrigin(s.from) !== undefined)
  );
}

function isPins(v: unknown): boolean {
  return (
    v === undefined ||
    (Array.isArray(v) &&
      v.every(
        (p) =>
          Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'boolean' && (p[2] === undefined || typeof p[2] === 'string'),
      ))
  );
}

/** Whether a draft changed anything (one that did not is not recorded). */
function changed(d: ReceiptDraft): boolean {
  return d.added.length + d.forgot.length + d.replaced.length + (d.pins?.length ?? 0) + (d.held ?? 0) > 0;
}

function parse(text: string): Receipts {
  const out: Receipts = { list: [], undone: new Map(), elsewhere: new Set() };
  // A torn line, or one holding no object (`null` by hand), is passed over: the others still count.
  for (const v of jsonObjectLines(text)) {
    if (typeof v.undone === 'string' && typeof v.at === 'string') {
      out.undone.set(v.undone, v.at);
      if (v.elsewhere === true) out.elsewhere.add(v.undone);
      continue;
    }
    const ok =
      typeof v.id === 'string' &&
      typeof v.at === 'string' &&
      typeof v.from === 'string' &&
      strings(v.added) &&
      strings(v.forgot) &&
      Array.isArray(v.replaced) &&
      v.replaced.every((p) => strings(p) && p.length === 2) &&
      strings(v.texts) &&
      Array.isArray(v.saved) &&
      v.saved.every(isSaved) &&
      isPins(v.pins) &&
      (v.held === undefined || (Number.isSafeInteger(v.held) && (v.held as number) >= 0));
    if (!ok) continue;
    out.list.push(v as unknown as Receipt);
  }
  return out;
}

function idNumber(id: string): number {
  return /^r\d+$/.test(id) ? Number(id.slice(1)) : 0;
}

export class ReceiptFile {
  private readonly file: SideFile<Receipts>;

  constructor(memoryPath: string, opts: SideFileOptions = {}) {
    this.file = new SideFile(receiptsPath(memoryPath), parse, opts);
  }

  /** Oldest first. */
  all(): Receipts {
    return this.file.current();
  }

  find(id: string): Receipt | undefined {
    return this.all().list.find((r) => r.id === id);
  }

  /** One receipt per draft that changed something; returns their ids. */
  record(drafts: readonly ReceiptDraft[], now: Date): Promise<string[]> {
    const real = drafts.filter(changed);
    if (real.length === 0) return Promise.resolve([]);
    return this.file.locked((cur) => {
      let n = cur.list.reduce((m, r) => Math.max(m, idNumber(r.id)), 0);
      const records = real.map((d) => ({ id: `r${++n}`, at: now.toISOString(), ...d }));
      const ids = records.map((r) => r.id);
      if (cur.list.length + records.length <= MAX) return { records, result: ids };
      // Over the bound: the newest MAX kept, in one rewrite (under the lock), with their undone marks.
      const kept = [...cur.list, ...(records as Receipt[])].slice(-MAX);
      const keep = new Set(kept.map((r) => r.id));
      const marks = [...cur.undone]
        .filter(([id]) => keep.has(id))
        .map(([undone, at]) => ({ undone, at, ...(cur.elsewhere.has(undone) && { elsewhere: true }) }));
      const text = [...kept, ...marks].map((r) => JSON.stringify(r) + '\n').join('');
      writeFileAtomicSync(this.file.path, text, { mode: 0o600 });
      return { records: [], result: ids };
    });
  }

  /** Mark a receipt undone; false when it already was (by another process, under the lock). */
  markUndone(id: string, now: Date, undo: () => Promise<void>): Promise<boolean> {
    return this.file.locked(async (cur) => {
      if (cur.undone.has(id)) return { records: [], result: false };
      await undo();
      return { records: [{ undone: id, at: now.toISOString() }], result: true };
    });
  }

  /** Mark receipts undone on another machine (`at`: when); those already undone here are left as they are. */
  markUndoneElsewhere(marks: ReadonlyArray<{ id: string; at: string }>): Promise<void> {
    if (marks.length === 0) return Promise.resolve();
    return this.file.locked((cur) => ({
      records: marks.filter((m) => !cur.undone.has(m.id)).map((m) => ({ undone: m.id, at: m.at, elsewhere: true })),
      result: undefined,
    }));
  }
}

/** What one local write of an arrival did: items added, forgotten, and [old, new] replacements. */
export interface ArrivalChange {
  added?: readonly MemoryItem[];
  forgot?: readonly MemoryItem[];
  replaced?: ReadonlyArray<readonly [MemoryItem, MemoryItem]>;
}

/**
 * Record the receipt of an arrival written through the store (an import, an agent's accepted
 * proposal); `isPinned` as the forgotten items were. Nothing changed: nothing recorded.
 */
export function recordArrival(
  memoryPath: string,
  from: string,
  c: ArrivalChange,
  isPinned: (it: MemoryItem) => boolean,
  opts: SideFileOptions = {},
  now = new Date(),
): Promise<string[]> {
  const d = emptyDraft(from);
  for (const it of [...(c.added ?? []), ...(c.replaced ?? []).map(([, n]) => n)]) noteAdded(d, uidOf(it), it.content);
  for (const it of c.forgot ?? []) {
    d.forgot.push(uidOf(it));
    d.saved.push(savedItem(it, uidOf(it), isPinned(it)));
  }
  for (const [old, n] of c.replaced ?? []) {
    d.replaced.push([uidOf(old), uidOf(n)]);
    d.saved.push(savedItem(old, uidOf(old), isPinned(old)));
  }
  return new ReceiptFile(memoryPath, opts).record([d], now);
}
