/**
 * What fields.ts declares, applied: the fields a record carries when written (a new item, sync's
 * wire, an export), what a writer from elsewhere may say (sync's received lines, an import), and
 * what recall searches. Each walks the table in its order, so records keep their key order.
 */
import { parseOrigin } from '../origin';
import { isScope } from '../scope-format';
import { ITEM_FIELDS, type FieldSpec, type FieldType } from './fields';
import { isoTime } from './parse';

type Fields = Record<string, unknown>;

const FIELDS = Object.entries(ITEM_FIELDS) as ReadonlyArray<[string, FieldSpec]>;

const RECALL_FIELDS: readonly string[] = FIELDS.filter(([, f]) => f.recall).map(([n]) => n);

/** Fields `list --json` leaves out. */
export const UNLISTED_FIELDS: readonly string[] = FIELDS.filter(([, f]) => !f.list).map(([n]) => n);

/** Whether a writer writes `v`: present and not empty (a flag only when true, an origin only when not here). */
function written(type: FieldType, v: unknown): boolean {
  if (type === 'words') return Array.isArray(v) && v.length > 0;
  if (type === 'flag') return v === true;
  return typeof v === 'string' && v !== '' && !(type === 'origin' && v === 'here');
}

/**
 * The fields of `from` that `column` takes, in the table's order, as a writer writes them. `given`
 * supplies values the caller computed (an export's pin, sync's machine-independent scope, the
 * origin); `redact`, when set, is applied to the fields that say so.
 */
export function fieldsFor(column: 'add' | 'wire' | 'export', from: object, given: Fields = {}, redact?: (s: string) => string): Fields {
  const src = from as Fields;
  const out: Fields = {};
  for (const [name, f] of FIELDS) {
    if (!f[column]) continue;
    const v = Object.hasOwn(given, name) ? given[name] : src[name];
    if (!written(f.type, v) || (f.with !== undefined && !Object.hasOwn(out, f.with))) continue;
    out[name] = f.type === 'flag' ? true : redact && f.redact ? redactValue(v, redact) : v;
  }
  return out;
}

function redactValue(v: unknown, redact: (s: string) => string): unknown {
  return Array.isArray(v) ? v.map((s) => redact(String(s))) : redact(String(v));
}

/** What recall searches beside an item's text: its `recall` fields, each after a space. */
export function recalledFields(item: object): string {
  let text = '';
  for (const f of RECALL_FIELDS) {
    const v = (item as Fields)[f];
    if (Array.isArray(v) && v.length > 0) text += ` ${v.join(' ')}`;
    else if (typeof v === 'string' && v !== '') text += ` ${v}`;
  }
  return text;
}

const UID = /^[0-9A-Za-z]{10,40}$/;
const isStr = (v: unknown): v is string => typeof v === 'string';

/** `v` as a writer from elsewhere may say it, or undefined (left out). */
function received(type: FieldType, v: unknown): unknown {
  switch (type) {
    case 'words':
      return Array.isArray(v) && v.length > 0 && v.every(isStr) ? v : undefined;
    case 'flag':
      return v === true ? true : undefined;
    case 'time':
      return isStr(v) && !Number.isNaN(isoTime(v)) ? v : undefined;
    case 'uid':
      return isStr(v) && UID.test(v) ? v : undefined;
    case 'scope':
      return isScope(v) ? v : undefined;
    case 'origin': {
      // A writer cannot say an item was written here.
      const o = parseOrigin(v);
      return o && o !== 'here' ? o : undefined;
    }
    default:
      return isStr(v) ? v : undefined;
  }
}

/**
 * The fields `column` takes from a record written elsewhere (a sync writer's line, an export):
 * anything not declared, not of its type, or not taken by the column is left out. `given` values
 * are taken as they are; `redact`, when set, is applied to the fields that say so. A scope on the
 * wire must be a project identity: `bad` says so otherwise.
 */
export function receivedFields(
  column: 'wire' | 'export',
  o: Fields,
  given: Fields = {},
  redact?: (s: string) => string,
): { fields: Fields } | { bad: string } {
  const out: Fields = {};
  for (const [name, f] of FIELDS) {
    if (!f[column]) continue;
    const given1 = Object.hasOwn(given, name);
    const raw = given1 ? given[name] : o[name];
    if (column === 'wire' && f.type === 'scope' && raw !== undefined && (!isScope(raw) || !/^(git|id):/.test(raw))) {
      return { bad: `${name} is not a project identity` };
    }
    const v = given1 ? (written(f.type, raw) ? raw : undefined) : received(f.type, raw);
    if (v === undefined || (f.with !== undefined && !Object.hasOwn(out, f.with))) continue;
    out[name] = redact && f.redact ? redactValue(v, redact) : v;
  }
  return { fields: out };
}

/**
 * What an item replacing `old` keeps (the table's `edit`): `pinnedAt` is when it was pinned
 * (undefined: not pinned), `byEdit` whether this is an edit of its text rather than a supersede.
 */
export function keptFields(old: object, pinnedAt: number | undefined, byEdit: boolean): Fields {
  const src = old as Fields;
  const out: Fields = {};
  for (const [name, f] of FIELDS) {
    if (f.edit === 'kept' || (f.edit === 'edit' && byEdit)) {
      if (written(f.type, src[name])) out[name] = src[name];
    } else if (f.edit === 'pin' && pinnedAt !== undefined) {
      out[name] = f.type === 'flag' ? true : new Date(pinnedAt).toISOString();
    }
  }
  return out;
}
