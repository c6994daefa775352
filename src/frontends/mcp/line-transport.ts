/**
 * The stdio transport of `aish mcp`: one JSON-RPC message per line. The SDK's own drops a line that
 * is not a valid message without a word (the client then waits for an answer that never comes)
 * and closes the whole server, silently, when one line passes 10 MB. Here every request gets an
 * answer: a line that is not JSON a parse error, one that is not a valid request an
 * invalid-request error (with its id, when it has one), and a line over MAX_LINE_BYTES is read to
 * its end without being kept and refused, while the calls around it go on.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read: far above any real call (answers use 4,000 characters of a text), bounded all the same. */
const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** What is kept of an over-long line's ends, to find its id. */
const KEEP = 4096;
/** Problems reported on stderr; past this many they are still answered, not reported. */
const MAX_WARNINGS = 20;

type Id = string | number | null;

const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\\n]|\\.){0,200}")/;
const ID_LAST = /[{,]\s*"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\\n]|\\.){0,200}")\s*\}\s*$/;

export class LineTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: (error: Error) => void;
  onclose?: () => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** The ends of a line past the limit, while the rest of it is read and dropped. */
  private skipping: { head: Buffer; tail: Buffer } | null = null;
  private line = 0;
  private warnings = 0;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly warn: (text: string) => void,
    private readonly maxLine = MAX_LINE_BYTES,
  ) {}

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.skipping = null;
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onInputError = (err: Error) => this.onerror?.(err);

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let at = 0; at < buf.length;) {
      const nl = buf.indexOf(10, at);
      this.take(buf.subarray(at, nl < 0 ? buf.length : nl));
      if (nl < 0) break;
      this.endLine();
      at = nl + 1;
    }
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]));
      return;
    }
    if (this.size + piece.length <= this.maxLine) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const all = Buffer.concat([...this.parts, piece]);
    this.skipping = { head: Buffer.from(all.subarray(0, KEEP)), tail: lastBytes(all) };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    this.line++;
    if (this.skipping) {
      const { head, tail } = this.skipping;
      this.skipping = null;
      const id = idOf(head.toString('utf8'), tail.toString('utf8'));
      const mib = Math.round(this.maxLine / 1024 / 1024);
      this.refuse(id, ErrorCode.InvalidRequest, `message over ${mib} MiB, the most aish mcp reads in one line — send less`);
      return;
    }
    const text = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    this.handle(text.endsWith('\r') ? text.slice(0, -1) : text);
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
      this.onmessage?.(parsed.data);
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
      if (this.output.write(JSON.stringify(message) + '\n')) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

function lastBytes(b: Buffer): Buffer {
  return b.length <= KEEP ? b : Buffer.from(b.subarray(b.length - KEEP));
}

/** The request id of a line too long to parse: from its start (`{"jsonrpc":"2.0","id":…`) or its end (`…,"id":7}`). */
function idOf(head: string, tail: string): Id {
  const m = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!m) return null;
  try {
    const v: unknown = JSON.parse(m[1]!);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}
