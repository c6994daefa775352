/**
 * Memory leaving and entering the machine: `aish memory export` (JSONL, or Markdown grouped by
 * kind and scope, readable and diffable) and the reading side of `aish memory import` (either of
 * those, or a memory.jsonl from another machine). Pure: text in, text or items out.
 */
import { redactText } from '../../util/secrets/redact';
import { sanitizeForBlock } from '../../util/text';
import { recordNotes } from './import-notes';
import { MAX_AHEAD_MS } from '../log/hlc';
import { isoTime } from '../log/parse';
import { MemoryState } from '../log/state';
import { fieldsFor, receivedFields } from '../log/field-codec';
import type { FieldsWhere } from '../log/fields';
import { originOf } from '../origin';
import { isMemoryKind, MEMORY_KINDS, type MemoryItem, type MemoryKind } from '../types';

const EXPORT_FORMAT = 'aish-memory-export';

/** An item as it travels: its kind, text and time, and the fields fields.ts exports (`export`); the receiving store assigns the id. */
export type TransferItem = { kind: MemoryKind; content: string; ts?: string } & FieldsWhere<'export'>;

/** An item leaving the machine: its text redacted again (an item hand-added to memory.jsonl never was). */
function travelling(it: MemoryItem, pinned: boolean): TransferItem {
  const fields = fieldsFor('export', it, { pinned, from: originOf(it) }, redactText) as FieldsWhere<'export'>;
  return { kind: it.kind, content: redactText(it.content), ts: it.ts, ...fields };
}

/** One header line, then one line per active item (oldest first), pins folded in. */
export function exportJsonl(items: readonly MemoryItem[], isPinned: (it: MemoryItem) => boolean, now: Date): string {
  const header = JSON.stringify({ meta: { format: EXPORT_FORMAT, version: 1, exported: now.toISOString(), items: items.length } });
  const lines = [...items].reverse().map((it) => JSON.stringify({ id: it.id, ...travelling(it, isPinned(it)) }));
  return [header, ...lines].join('\n') + '\n';
}

const MD_META = /\s*<!--\s*aish\s+(\{.*\})\s*-->\s*$/;

/** `## kind — global` / `## kind — project DIR` sections; each item one bullet with its details in a comment. */
export function exportMarkdown(items: readonly MemoryItem[], isPinned: (it: MemoryItem) => boolean, now: Date): string {
  const groups = new Map<string, MemoryItem[]>();
  for (const it of [...items].reverse()) {
    const key = `${it.kind}\u0000${it.scope ?? ''}`;
    const g = groups.get(key);
    if (g) g.push(it);
    else groups.set(key, [it]);
  }
  const order = [...groups.keys()].sort((a, b) => {
    const [ka, sa] = a.split('\u0000');
    const [kb, sb] = b.split('\u0000');
    return MEMORY_KINDS.indexOf(ka as MemoryKind) - MEMORY_KINDS.indexOf(kb as MemoryKind) || sa!.localeCompare(sb!);
  });
  const out = [
    `# aish memory`,
    '',
    `Exported ${now.toISOString()}: ${items.length} item${items.length === 1 ? '' : 's'}. Import with \`aish memory import FILE\`.`,
  ];
  for (const key of order) {
    const [kind, scope] = key.split('\u0000');
    out.push('', `## ${kind} — ${scope ? `project ${scope}` : 'global'}`, '');
    for (const it of groups.get(key)!) {
      const { kind: _k, content: _c, scope: _s, ...meta } = travelling(it, isPinned(it));
      out.push(`- ${sanitizeForBlock(redactText(it.content))} <!-- aish ${JSON.stringify(meta)} -->`);
    }
  }
  return out.join('\n') + '\n';
}

export interface ParsedImport {
  items: TransferItem[];
  /** Lines that could not be used, as `LINE: reason`. */
  problems: string[];
}

/**
 * JSONL (an export or a memory.jsonl: tombstones applied) or a Markdown export. Where an item says
 * it came from (`from`, `via`) is not taken: anyone can write a file that claims another of the
 * user's machines or a teammate, so what is known is the file, and the importer names it.
 */
export function parseImport(text: string): ParsedImport {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const parsed = first.trim().startsWith('{') ? parseJsonl(text) : parseMarkdown(text);
  return { ...parsed, items: parsed.items.map(({ from: _from, ...rest }) => rest) };
}

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/**
 * Tombstones written short — `{"forget":3}`, `{"kind":"forget","target":3}` without an id or time,
 * or naming the item by `target_uid` — made whole, line for line, so that the item they forget does
 * not come in active. Their ids are taken from the top of the range, where the file's items are not:
 * ids only matter within this file.
 */
function wholeTombstones(text: string): string {
  const lines = text.split('\n');
  const objects = lines.map((l): Record<string, unknown> | null => {
    if (!l.trimStart().startsWith('{')) return null;
    try {
      const v: unknown = JSON.parse(l);
      return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  });
  const byUid = new Map<string, number>();
  for (const o of objects) if (o && typeof o.uid === 'string' && isId(o.id) && o.kind !== 'forget') byUid.set(o.uid, o.id);
  let next = Number.MAX_SAFE_INTEGER;
  objects.forEach((o, i) => {
    if (!o || (o.kind !== undefined && o.kind !== 'forget')) return;
    const target = 'forget' in o ? o.forget : o.kind !== 'forget' ? undefined : isId(o.target) ? o.target : byUid.get(String(o.target_uid));
    if (!isId(target)) return;
    if (isId(o.id) && typeof o.ts === 'string' && !Number.isNaN(Date.parse(o.ts)) && o.kind === 'forget' && o.target === target) return; // already whole
    lines[i] = JSON.stringify({ id: next--, ts: new Date(0).toISOString(), kind: 'forget', target });
  });
  return lines.join('\n');
}

function parseJsonl(raw: string): ParsedImport {
  const state = new MemoryState();
  const text = wholeTombstones(raw);
  const tail = state.ingest(text.endsWith('\n') ? text : text + '\n', 1);
  const problems = state.skipped.filter((s) => !s.kept).map((s) => `${s.line}: ${s.reason}`);
  if (tail !== null) problems.push('the last object is not closed');
  problems.push(...recordNotes(state));
  const items = [...state.active()].reverse().map((it) => travelling(it, state.isPinned(it)));
  return { items, problems };
}

function parseMarkdown(text: string): ParsedImport {
  const items: TransferItem[] = [];
  const problems: string[] = [];
  let section: { kind: MemoryKind; scope?: string } | null = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    const h = /^##\s+(\S+)\s+[—-]\s+(global|project\s+(.+))\s*$/.exec(line);
    if (h) {
      if (!isMemoryKind(h[1])) {
        problems.push(`${i + 1}: unknown kind "${h[1]}" in a heading (expected fact, pref or context)`);
        section = null;
        return;
      }
      section = { kind: h[1], ...(h[3] && { scope: h[3].trim() }) };
      return;
    }
    const b = /^[-*]\s+(.*)$/.exec(line);
    if (!b) return;
    if (!section) {
      problems.push(`${i + 1}: an item outside a "## kind — global|project DIR" section`);
      return;
    }
    let content = b[1]!;
    let meta: Record<string, unknown> = {};
    const m = MD_META.exec(content);
    if (m) {
      try {
        meta = JSON.parse(m[1]!) as Record<string, unknown>;
      } catch {
        problems.push(`${i + 1}: unreadable details comment (kept the text)`);
      }
      content = content.slice(0, m.index);
    }
    content = content.trim();
    if (!content) return;
    const scope: string | undefined = (section as { scope?: string }).scope;
    const fields = receivedFields('export', meta, { scope }, redactText);
    items.push({
      kind: (section as { kind: MemoryKind }).kind,
      content,
      ...(typeof meta.ts === 'string' && !Number.isNaN(Date.parse(meta.ts)) && { ts: meta.ts }),
      ...('fields' in fields && (fields.fields as FieldsWhere<'export'>)),
    });
  });
  return { items, problems };
}

/**
 * Items dated more than MAX_AHEAD_MS ahead of `now` taken at `now`, as sync takes such records
 * (sync/incoming.ts): a file from a clock set wrong, or written to outrank everything, would
 * otherwise sort before every item of the user's for years, first into [background]; a `confirmed`
 * that far ahead, too (it would never be stale).
 */
export function takenAtThisClock(items: readonly TransferItem[], now: Date): { items: TransferItem[]; future: number } {
  const limit = now.getTime() + MAX_AHEAD_MS;
  let future = 0;
  const ahead = (v: string | undefined) => v !== undefined && isoTime(v) > limit;
  const out = items.map((t) => {
    const ts = ahead(t.ts);
    const confirmed = ahead(t.confirmed);
    if (!ts && !confirmed) return t;
    future++;
    return { ...t, ...(ts && { ts: now.toISOString() }), ...(confirmed && { confirmed: now.toISOString() }) };
  });
  return { items: out, future };
}
