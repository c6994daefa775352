/**
 * The stdio transport of `aish mcp`: one JSON-RPC message per line. The SDK's own drops a line that
 * is not a valid message without a word (the client then waits for an answer that never comes)
 * and closes the whole server, silently, when one line passes 10 MB. Here every request gets an
 * answer: a line that is not JSON a parse error, one that is not a valid request an
 * invalid-request error (with its id, when it has one), and a line over MAX_LINE_BYTES is read to
 * its end without being kept and refused, while the calls around it go on. Reading waits while 64
 * requests are unanswered or stdout is backed up (a client that never reads its answers), so memory
 * stays bounded however much a client sends.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { idOfLong, LineReader } from '../../tools/mcp/lines';

/** The longest line read: far above any real call (answers use 4,000 characters of a text), bounded all the same. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** Problems reported on stderr; past this many they are still answered, not reported. */
const MAX_WARNINGS = 20;
/** Requests read and not yet answered; past this many, no more is read until one is. */
const MAX_PENDING = 64;

type Id = string | number | null;

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  /** Lines, each bounded: past the limit only its ends are kept, to answer it by its id. */
  private readonly reader: LineReader;
  private line = 0;
  private warnings = 0;
  /** Ids of the requests handed on and not yet answered (a cancelled one is never answered). */
  private readonly pending = new Set<string | number>();
  /** What was read past the point where reading stopped; handled first when it goes on. */
  private backlog: Buffer | null = null;
  /** stdout is backed up: writes wait for 'drain' (one listener, however many wait). */
  private drainWaiters: Array<() => void> | null = null;
  private paused = false;
  private closed = false;
  private ended = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly warn: (text: string) => void,
    private readonly maxLine = MAX_LINE_BYTES,
  ) {
    this.reader = new LineReader(maxLine);
  }

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
    // Nobody reads the answers any more: nothing more can be answered, so the connection is over.
    this.output.on('error', this.onOutputGone);
    this.output.on('close', this.onOutputGone);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message) && message.id !== undefined) this.settle(message.id);
    return this.write('error' in message ? { ...message, error: oneLineError(message.error) } : message);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.backlog = null;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.output.off('error', this.onOutputGone);
    this.output.off('close', this.onOutputGone);
    const waiters = this.drainWaiters ?? [];
    this.drainWaiters = null;
    for (const w of waiters) w();
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.reader.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  /** Reads no more (a signal to end): what was read is answered, then the connection closes. */
  stop(): void {
    this.input.off('data', this.onData);
    this.backlog = null;
    this.reader.clear();
    this.onEnd();
  }

  private readonly onInputError = (err: Error) => this.onerror?.(err);

  /** The client closed stdin: the connection ends once every request read has been answered. */
  private readonly onEnd = () => {
    this.ended = true;
    this.endIfDone();
  };

  private readonly onOutputGone = () => void this.close();

  private endIfDone(): void {
    if (this.ended && !this.closed && this.pending.size === 0 && !this.backlog) void this.close();
  }

  private readonly onData = (chunk: Buffer | string) => {
    this.consume(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  /** Lines of `buf` until reading must wait; the rest is kept for then. */
  private consume(buf: Buffer): void {
    for (let at = 0; at < buf.length;) {
      if (this.full()) {
        this.backlog = this.backlog ? Buffer.concat([this.backlog, buf.subarray(at)]) : Buffer.from(buf.subarray(at));
        this.pause();
        return;
      }
      const nl = buf.indexOf(10, at);
      this.reader.take(buf.subarray(at, nl < 0 ? buf.length : nl));
      if (nl < 0) break;
      this.endLine();
      at = nl + 1;
    }
  }

  private full(): boolean {
    return !this.closed && (this.pending.size >= MAX_PENDING || this.drainWaiters !== null);
  }

  private pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.input.pause();
  }

  /** Reading goes on once the client has room again: the backlog first, then the stream. */
  private unblock(): void {
    if (!this.paused || this.full() || this.closed) return;
    const rest = this.backlog;
    this.backlog = null;
    if (rest) this.consume(rest);
    if (this.full() || this.closed) return;
    this.paused = false;
    this.input.resume();
  }

  private settle(id: string | number): void {
    if (!this.pending.delete(id)) return;
    this.unblock();
    // After the answer is written (send writes right after settling).
    if (this.ended) queueMicrotask(() => this.endIfDone());
  }

  private endLine(): void {
    this.line++;
    const ev = this.reader.end();
    if ('tooLong' in ev) {
      const id = idOfLong(ev.tooLong.head, ev.tooLong.tail) ?? null;
      const mib = Math.round(this.maxLine / 1024 / 1024);
      this.refuse(id, ErrorCode.InvalidRequest, `message over ${mib} MiB, the most aish mcp reads in one line — send less`);
      return;
    }
    this.handle(ev.line);
  }

  private handle(text: string): void {
    if (text.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      this.refuse(null, ErrorCode.ParseError, 'Parse error: the line is not JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(v);
    if (parsed.success) {
      const msg = parsed.data;
      if ('method' in msg && 'id' in msg) this.pending.add(msg.id);
      // A cancelled request is never answered (the SDK drops its result): it no longer counts.
      else if ('method' in msg && msg.method === 'notifications/cancelled') {
        const id = (msg.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') this.settle(id);
      }
      this.onmessage?.(msg);
      return;
    }
    const o = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    const id = o && (typeof o.id === 'string' || typeof o.id === 'number') ? o.id : null;
    // A notification (no id) or a response is never answered: reported only.
    if (o && (typeof o.method === 'string' ? id === null : 'result' in o || 'error' in o)) {
      this.report(`line ${this.line} from the client is not a valid JSON-RPC message; ignored`);
      return;
    }
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length ? ` at ${issue.path.map(String).join('.')}` : '';
    this.refuse(id, ErrorCode.InvalidRequest, `Invalid Request: not a valid JSON-RPC request${where}`);
  }

  /** Answer a request that cannot be run, and say so on stderr. */
  private refuse(id: Id, code: number, message: string): void {
    this.report(`line ${this.line} from the client: ${message}`);
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  private report(text: string): void {
    this.warnings++;
    if (this.warnings <= MAX_WARNINGS) this.warn(text);
    else if (this.warnings === MAX_WARNINGS + 1) this.warn('more malformed messages from the client: answered, no longer reported');
  }

  private write(message: object): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(JSON.stringify(message) + '\n')) return resolve();
      if (this.drainWaiters) return void this.drainWaiters.push(resolve);
      this.drainWaiters = [resolve];
      this.output.once('drain', () => {
        const waiters = this.drainWaiters ?? [];
        this.drainWaiters = null;
        for (const w of waiters) w();
        this.unblock();
      });
    });
  }
}

/**
 * The SDK answers params that fail its schema (`arguments: null`, say) with an internal error whose
 * message is the whole validation report, pretty-printed JSON: that is invalid params, said in one line.
 */
function oneLineError<E extends { code: number; message: string }>(e: E): E {
  if (e.code !== (ErrorCode.InternalError as number) || !e.message.startsWith('[')) return e;
  try {
    const issues = JSON.parse(e.message) as Array<{ path?: unknown[]; message?: unknown }>;
    const first = issues[0];
    if (!first || typeof first.message !== 'string') return e;
    const where = Array.isArray(first.path) && first.path.length ? `${first.path.map(String).join('.')}: ` : '';
    return { ...e, code: ErrorCode.InvalidParams, message: `Invalid params: ${where}${first.message}`.replace(/\s+/g, ' ') };
  } catch {
    return e;
  }
}
