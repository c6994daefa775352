/**
 * The one declaration of a memory item's optional fields: what each holds and where it goes. parse
 * (what a line may say), records (a new item, an edit), sync's wire format, export/import, recall's
 * text and `list --json` all read this table (field-codec.ts); the types below derive from it. A new
 * field is one line here. Every item also has `id`, `uid`, `hlc`, `ts`, `kind` and `content`, in
 * that order, then these, in this order (the order records are written in).
 */

/**
 * words: a list of strings. text: a string. flag: true or false (written only when true). time: an
 * ISO-8601 time. uid: another record's uid. scope: a project (scope-format.ts). origin: where it
 * came from (origin.ts; `here` is never written). name: a name. memory.jsonl refuses a line whose
 * words, text, flag, uid or scope is of the wrong type; a time, origin or name that is not one is
 * read as absent.
 */
export type FieldType = 'words' | 'text' | 'flag' | 'time' | 'uid' | 'scope' | 'origin' | 'name';

export interface FieldSpec {
  type: FieldType;
  /** Part of a new item: an add option (`AddOptions`). */
  add: boolean;
  /** Sent to the user's other machines by sync. */
  wire: boolean;
  /** Written by export and read back by import. */
  export: boolean;
  /** Searched by recall beside the text (and in the index). */
  recall: boolean;
  /** Shown by `aish memory list --json`. */
  list: boolean;
  /** Redacted when it leaves the machine (export) or comes in (import). */
  redact: boolean;
  /**
   * What an item that replaces this one keeps: `kept` always, `edit` on an edit of its text (not
   * a supersede), `pin` follows the item's pin (computed, not copied), `never`.
   */
  edit: 'kept' | 'edit' | 'pin' | 'never';
  /** Written only beside this other field. */
  with?: string;
}

// prettier-ignore
export const ITEM_FIELDS = {
  /** Searched like the text. */
  tags:      { type: 'words',  add: true,  wire: true,  export: true,  recall: true,  list: true, redact: true,  edit: 'edit' },
  /** Search words beside the text (`:memory edit ID (keys: …)`, or proposed by the summarizer). */
  keys:      { type: 'words',  add: true,  wire: true,  export: true,  recall: true,  list: true, redact: true,  edit: 'edit' },
  /** Provenance, e.g. the session an item was extracted from. */
  source:    { type: 'text',   add: true,  wire: true,  export: true,  recall: false, list: true, redact: true,  edit: 'edit' },
  /** A project item: used only inside this project (on the wire: a project identity only). */
  scope:     { type: 'scope',  add: true,  wire: true,  export: true,  recall: false, list: true, redact: false, edit: 'kept' },
  /** Always leads [background] (`:memory pin` writes a pin record instead; compaction folds it in). */
  pinned:    { type: 'flag',   add: true,  wire: true,  export: true,  recall: false, list: true, redact: false, edit: 'pin' },
  /** When `pinned: true` was set; absent: `ts`. */
  pinned_at: { type: 'time',   add: true,  wire: true,  export: false, recall: false, list: true, redact: false, edit: 'pin', with: 'pinned' },
  /** Never leaves this machine by sync (export keeps it: the file is the user's to move). */
  private:   { type: 'flag',   add: true,  wire: false, export: true,  recall: false, list: true, redact: false, edit: 'kept' },
  /** The uid of the item this one replaced (an edit or supersede sets it). */
  replaces:  { type: 'uid',    add: true,  wire: true,  export: false, recall: false, list: true, redact: false, edit: 'never' },
  /** Where it came from when not here. */
  from:      { type: 'origin', add: true,  wire: true,  export: true,  recall: false, list: true, redact: false, edit: 'never' },
  /** When the user kept it as it is in `:memory review --stale` (review/stale.ts): not stale for 90 days from then. */
  confirmed: { type: 'time',   add: true,  wire: true,  export: true,  recall: false, list: true, redact: false, edit: 'never' },
  /** Set by sync on a received record: the writer it came from. */
  via:       { type: 'name',   add: false, wire: false, export: false, recall: false, list: true, redact: false, edit: 'never' },
} as const satisfies Record<string, FieldSpec>;

interface FieldValues {
  words: string[];
  text: string;
  flag: boolean;
  time: string;
  uid: string;
  scope: string;
  origin: string;
  name: string;
}

type Table = typeof ITEM_FIELDS;
type ValueOf<K extends keyof Table> = FieldValues[Table[K]['type']];

/** Every optional field of an item. */
export type ItemFields = { [K in keyof Table]?: ValueOf<K> };

/** The fields a column says yes to (`add`: an add's options, `wire`: sync's, `export`: export's). */
export type FieldsWhere<C extends 'add' | 'wire' | 'export'> = {
  [K in keyof Table as Table[K][C] extends true ? K : never]?: ValueOf<K>;
};
