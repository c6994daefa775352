/**
 * Hybrid recall's meaning side: items embedded in the background, in batches, cached in
 * `memory.jsonl.vectors` (vector-file.ts, one model) keyed by uid and text; per turn, the message
 * embedded within a time limit and ranked by cosine. Nothing here holds up a turn: the background
 * pass yields between slices; a message not embedded in time goes out with the words ranking alone.
 */
import { createHash } from 'node:crypto';
import { recallText } from '../index/build';
import type { MemoryItem } from '../types';
import type { EmbedClient } from './client';
import { normalize, VectorFile, type VectorRecord } from './vector-file';
import { within } from './within';

const BATCH = 64; // texts per request: one round trip per 64 items, within any server's input limit
/** Time limit of one background batch; items read per slice of the background pass before it yields. */
const BATCH_TIMEOUT_MS = 30_000;
const SLICE = 256;
const BACKOFF_MS = 30_000; // after a failed batch, this long (doubling, up to BACKOFF_MAX_MS)
const BACKOFF_MAX_MS = 600_000;
/** Nearest items considered before filtering (background, scope); from STAND_OUT_FROM vectors, a hit needs STAND_OUT over the mean. */
const NEAREST = 64;
const STAND_OUT_FROM = 20;
const STAND_OUT = 0.1;

/** What the background pass reads: active ids in id order, and an item by id. */
export interface ItemSource {
  ids(): number[];
  /** The active items among `ids` (one look at the file for all of them). */
  getMany(ids: readonly number[]): MemoryItem[];
  /** Changes whenever the file was rebuilt (a hand edit, compaction): a full pass follows. */
  generation(): number;
  /** Cheap, and changes whenever the active items may have (generation, highest id, count). */
  stamp(): string;
}

export type MeaningRanking = { ok: true; hits: Array<{ id: number; similarity: number }> } | { ok: false; why: string };

/** The cache key of an item's vector: its identity and the text embedded (the file is one model's). */
function itemKey(item: MemoryItem): Buffer {
  return createHash('sha256')
    .update(`${item.uid ?? `id:${item.id}`}\n${recallText(item)}`)
    .digest()
    .subarray(0, 16);
}

export class Embeddings {
  readonly file: VectorFile;
  private loaded: Promise<void> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  /** Items with a vector: id → row. */
  private readonly rowOf = new Map<number, number>();
  private scannedTo = 0;
  private scannedGen = -1;
  /** The source's stamp when the last pass ended: a turn's kick reads no ids while it is the same. */
  private scannedStamp = '';
  /** A batch came back in another dimension during this pass: everything is embedded again. */
  private dimChanged = false;
  private retryAt = 0;
  private backoff = BACKOFF_MS;
  private packedValue: { ids: Float64Array; rows: Int32Array } | null = null;
  /** Batches sent by this process (tests and benchmarks read it). */
  batches = 0;

  constructor(
    readonly client: EmbedClient,
    vectorsPath: string,
    private readonly source: ItemSource,
    private readonly warn: (text: string) => void,
  ) {
    this.file = new VectorFile(vectorsPath, client.model);
  }

  /** Items that have a vector now. */
  get embedded(): number {
    return this.rowOf.size;
  }

  /** Start (or continue) embedding what has no vector yet, in the background; resolves when this pass ends. */
  kick(): Promise<void> {
    if (this.stopped || Date.now() < this.retryAt) return this.running ?? Promise.resolve();
    this.running ??= this.pass(true)
      .catch((err: unknown) => this.paused(err))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Which items have a vector already, without embedding any (a plan outside a session); nothing when a pass is running. */
  async mapCached(): Promise<void> {
    if (!this.running && !this.stopped) await this.pass(false).catch((err: unknown) => this.paused(err));
  }

  /** A failed batch or cache write: a pause before the next try, with one warning. */
  private paused(err: unknown): void {
    this.retryAt = Date.now() + this.backoff;
    this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    this.warn(`memory embeddings paused: ${(err as Error).message} — recall uses words alone until it answers`);
  }

  /** `embed` false: items with no vector are only passed over (and the pass not counted as done). */
  private async pass(embed: boolean): Promise<void> {
    if (embed) this.client.prepare();
    this.loaded ??= this.file.load();
    await this.loaded;
    for (;;) {
      const stamp = this.source.stamp();
      if (stamp === this.scannedStamp) return;
      const gen = this.source.generation();
      const full = gen !== this.scannedGen;
      const ids = this.source.ids();
      const last = ids.length ? ids[ids.length - 1]! : 0;
      if (!full && last <= this.scannedTo) {
        this.scannedStamp = stamp;
        return;
      }
      if (full) this.clearRows();
      const from = full ? 0 : firstAfter(ids, this.scannedTo);
      const pending: Array<{ id: number; key: Buffer; text: string }> = [];
      for (let at = from; at < ids.length; at += SLICE) {
        for (const item of this.source.getMany(ids.slice(at, at + SLICE))) {
          const key = itemKey(item);
          const row = this.file.row(key.toString('hex'));
          if (row !== undefined) this.setRow(item.id, row);
          else if (embed) pending.push({ id: item.id, key, text: recallText(item) });
        }
        while (pending.length >= BATCH || (pending.length && at + SLICE >= ids.length)) {
          if (!(await this.send(pending.splice(0, BATCH)))) return;
        }
        if (this.stopped) return;
        await new Promise((r) => setImmediate(r));
      }
      if (!embed) return;
      this.scannedTo = last;
      this.scannedGen = this.dimChanged ? -1 : gen;
      this.scannedStamp = this.dimChanged ? '' : stamp;
      if (full && !this.dimChanged) this.dropStale();
      this.dimChanged = false;
    }
  }

  /** One batch embedded and cached; false (and a pause before the next try) when the server failed. */
  private async send(batch: Array<{ id: number; key: Buffer; text: string }>): Promise<boolean> {
    let vecs: Float32Array[];
    try {
      this.batches++;
      vecs = await this.client.embed(
        batch.map((b) => b.text),
        BATCH_TIMEOUT_MS,
        this.abort.signal,
      );
    } catch (err) {
      if (!this.stopped) this.paused(err);
      return false;
    }
    if (this.stopped) return false;
    this.backoff = BACKOFF_MS;
    const dim = vecs[0]!.length;
    // Another dimension than the cache's: the model behind the name changed; what was cached is dropped.
    if (this.file.dim && dim !== this.file.dim) {
      this.clearRows();
      this.dimChanged = true;
    }
    const records: VectorRecord[] = [];
    batch.forEach((b, i) => {
      if (normalize(vecs[i]!)) records.push({ key: b.key, vec: vecs[i]! });
    });
    this.file.add(records);
    batch.forEach((b) => {
      const row = this.file.row(b.key.toString('hex'));
      if (row !== undefined) this.setRow(b.id, row);
    });
    return true;
  }

  /** After a full pass: when most of the file is vectors of forgotten or edited items, it is rewritten without them. */
  private dropStale(): void {
    if (this.file.rows <= this.rowOf.size * 1.5 + 64) return;
    // Rows change in a compaction: each item's key is taken before, its new row looked up after.
    const keyOf = new Map<number, string>();
    for (const [id, row] of this.rowOf) if (row >= 0) keyOf.set(id, this.file.keyAt(row));
    this.file.compact(new Set(keyOf.values()));
    for (const [id, key] of keyOf) this.setRow(id, this.file.row(key) ?? -1);
  }

  /** The items nearest in meaning to `text`, best first (≤ `limit`, cosine ≥ `minSimilarity`); `{ok: false}` and why when not embedded in `timeoutMs`. */
  async rank(
    text: string,
    o: { timeoutMs: number; minSimilarity: number; limit: number; usable: (id: number) => boolean; background: boolean },
  ): Promise<MeaningRanking> {
    // A turn goes on embedding new items (with none mapped yet, just started, it waits within its
    // time limit for the pass that maps the cached ones); a plan only looks at what is cached.
    const until = Date.now() + o.timeoutMs;
    if (o.background) void this.kick();
    else await this.mapCached();
    let q: Float32Array;
    try {
      [q] = (await this.client.embed([text], o.timeoutMs)) as [Float32Array];
    } catch (err) {
      return { ok: false, why: (err as Error).message };
    }
    if (o.background && this.running && this.rowOf.size === 0) await within(this.running, until - Date.now());
    if (!normalize(q)) return { ok: false, why: `${this.client.where()} gave the message a zero vector` };
    if (this.file.dim && q.length !== this.file.dim) {
      // The model behind the name changed: its vectors are embedded again, from scratch.
      this.clearRows();
      this.file.compact(new Set());
      this.scannedGen = -1;
      this.scannedStamp = '';
      if (o.background) void this.kick();
      return { ok: false, why: `the embedding dimension changed (${this.file.dim} → ${q.length}); items are embedded again` };
    }
    if (this.rowOf.size === 0) return { ok: false, why: 'no item is embedded yet' };
    return { ok: true, hits: this.nearest(q, o) };
  }

  /** Brute force over every item with a vector (`q`: a unit vector of the cache's dimension); the best NEAREST are then filtered. */
  nearest(
    q: Float32Array,
    o: { minSimilarity: number; limit: number; usable: (id: number) => boolean },
  ): Array<{ id: number; similarity: number }> {
    const d = this.file.dim;
    const data = this.file.data;
    const { ids, rows } = this.packed();
    const top: Array<{ id: number; similarity: number }> = [];
    const d4 = d - (d % 4);
    let sum = 0;
    for (let n = 0; n < ids.length; n++) {
      const at = rows[n]! * d;
      // Four sums at once: fewer dependent additions per step.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i < d4; i += 4) {
        s0 += q[i]! * data[at + i]!;
        s1 += q[i + 1]! * data[at + i + 1]!;
        s2 += q[i + 2]! * data[at + i + 2]!;
        s3 += q[i + 3]! * data[at + i + 3]!;
      }
      for (; i < d; i++) s0 += q[i]! * data[at + i]!;
      const s = s0 + s1 + s2 + s3;
      sum += s;
      const id = ids[n]!;
      if (s < o.minSimilarity || (top.length === NEAREST && s <= top[NEAREST - 1]!.similarity)) continue;
      let k = top.length === NEAREST ? NEAREST - 1 : top.length;
      while (k > 0 && top[k - 1]!.similarity < s) k--;
      top.splice(k, 0, { id, similarity: s });
      if (top.length > NEAREST) top.pop();
    }
    // A hit must stand out: a message about nothing in particular ("good morning") is about as close
    // to every item (well over the mean, or NEAREST items as close as the best): nothing is recalled.
    if (top.length === NEAREST && top[NEAREST - 1]!.similarity >= top[0]!.similarity - STAND_OUT / 5) return [];
    const floor = ids.length >= STAND_OUT_FROM ? sum / ids.length + STAND_OUT : -Infinity;
    return top.filter((h) => h.similarity >= floor && o.usable(h.id)).slice(0, o.limit);
  }

  /** The items with a vector as two packed arrays, made again after a change (walking the Map per turn costs more than the arithmetic). */
  private packed(): { ids: Float64Array; rows: Int32Array } {
    if (this.packedValue) return this.packedValue;
    const ids = new Float64Array(this.rowOf.size);
    const rows = new Int32Array(this.rowOf.size);
    let k = 0;
    for (const [id, row] of this.rowOf) {
      if (row < 0) continue;
      ids[k] = id;
      rows[k++] = row;
    }
    return (this.packedValue = { ids: ids.subarray(0, k), rows: rows.subarray(0, k) });
  }

  private setRow(id: number, row: number): void {
    this.rowOf.set(id, row);
    this.packedValue = null;
  }

  private clearRows(): void {
    this.rowOf.clear();
    this.packedValue = null;
  }

  /** Stop the background pass (an in-flight batch is abandoned; what was written stays). */
  close(): void {
    this.stopped = true;
    this.abort.abort();
  }
}

function firstAfter(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid]! <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
