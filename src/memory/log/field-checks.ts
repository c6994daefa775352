/** What a memory.jsonl line's declared fields (fields.ts) must be, or the line is unreadable. */
import { isScope, SCOPE_FORMS } from '../scope-format';
import { ITEM_FIELDS, type FieldType } from './fields';

/** By type; a time, origin or name that is not one reads as absent instead. */
const TYPE_CHECKS: Partial<Record<FieldType, { ok: (v: unknown) => boolean; reason: (name: string, v: unknown) => string }>> = {
  words: { ok: (v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), reason: (n) => `${n} must be a list of strings` },
  text: { ok: (v) => typeof v === 'string', reason: (n) => `${n} must be a string` },
  flag: { ok: (v) => typeof v === 'boolean', reason: (n, v) => `${n} must be true or false (got ${show(v)})` },
  uid: { ok: (v) => typeof v === 'string', reason: (n) => `${n} must be a string (a uid)` },
  scope: { ok: isScope, reason: (_n, v) => `${SCOPE_FORMS} (got ${show(v)})` },
};

const CHECKS = Object.entries(ITEM_FIELDS).flatMap(([name, f]) => {
  const check = TYPE_CHECKS[f.type];
  return check ? [[name, check] as const] : [];
});

/** Why the item's fields make its line unreadable, or undefined. Runs per line: no allocation. */
export function fieldProblem(o: Record<string, unknown>): string | undefined {
  for (const [name, check] of CHECKS) {
    const v = o[name];
    if (v !== undefined && !check.ok(v)) return check.reason(name, v);
  }
  return undefined;
}

/** A value, short, for a reason. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 30 ? `${v.slice(0, 30)}…` : v);
  if (typeof v === 'number') return String(v);
  if (v === null) return 'null';
  return Array.isArray(v) ? 'a list' : typeof v;
}
