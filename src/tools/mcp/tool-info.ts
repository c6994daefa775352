/**
 * How MCP tools look from aish's side: a unique model-facing name (`server__tool`), the hints the
 * gate reads, and a tool result as text. A server is someone else's program: what it says about a
 * tool (description, the strings inside its input schema) reaches the model, so it is neutralised
 * like memory text (util/prompt-neutral): no chat-template tokens, bidi controls or tag characters.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { neutralizeForPrompt } from '../../util/prompt-neutral';
import { CONTROL_CHARS, CONTROL_CHARS_EXCEPT_TAB_NL } from '../../util/text';

export interface McpToolInfo {
  /** Exposed to the model: `${server}__${tool}`, sanitised to ^[a-zA-Z0-9_-]{1,64}$, unique. */
  name: string;
  server: string;
  /** The server's own name for it (control characters removed: it is shown). */
  tool: string;
  description: string;
  /** The tool's JSON schema; `type: 'object'` guaranteed. */
  inputSchema: Record<string, unknown>;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

/** What the OpenAI API accepts as a function name. */
export const VALID_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** What one tool may cost the model's request: its description and its schema, bounded. */
const MAX_DESCRIPTION = 1024;
const MAX_SCHEMA_CHARS = 32 * 1024;
const MAX_SCHEMA_DEPTH = 32;

/** Why a tool is not offered (a schema too big or too deep to pass on whole), or undefined. */
export function unusable(t: Tool): string | undefined {
  const json = JSON.stringify(t.inputSchema ?? {});
  if (json.length > MAX_SCHEMA_CHARS) return `input schema over ${MAX_SCHEMA_CHARS / 1024} KB`;
  if (depth(t.inputSchema) > MAX_SCHEMA_DEPTH) return `input schema nested over ${MAX_SCHEMA_DEPTH} deep`;
  return undefined;
}

function depth(v: unknown, d = 0): number {
  if (typeof v !== 'object' || v === null || d > MAX_SCHEMA_DEPTH) return d;
  let most = d;
  for (const x of Object.values(v)) most = Math.max(most, depth(x, d + 1));
  return most;
}

/** A server's text as the model and the terminal may see it: no control characters, no template tokens. */
const neutral = (s: string): string => neutralizeForPrompt(s.replace(CONTROL_CHARS_EXCEPT_TAB_NL, ''));

export const shortHash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 6);

/** Makes `${server}__${tool}` a valid tool name; `taken` holds the names already handed out. */
export function sanitizeToolName(server: string, tool: string, taken: ReadonlySet<string>): string {
  const raw = `${server}__${tool}`;
  let name = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (name.length > 64 || taken.has(name)) name = `${name.slice(0, 57)}_${shortHash(raw)}`;
  for (let i = 2; taken.has(name); i++) name = `${name.slice(0, 60 - String(i).length)}_${i}`;
  return name;
}

/** Every string value inside a JSON value neutralised; keys (the argument names a call must use) kept. */
function neutralValues(v: unknown, d = 0): unknown {
  if (typeof v === 'string') return neutral(v);
  // Deeper than unusable() lets through: dropped rather than passed on unread.
  if (typeof v !== 'object' || v === null) return v;
  if (d > MAX_SCHEMA_DEPTH) return {};
  if (Array.isArray(v)) return v.map((x) => neutralValues(x, d + 1));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(CONTROL_CHARS, ''), neutralValues(x, d + 1)]));
}

export function toInfo(name: string, server: string, t: Tool): McpToolInfo {
  const info: McpToolInfo = {
    name,
    server,
    tool: t.name.replace(CONTROL_CHARS, ''),
    description: neutral(
      Array.from((t.description ?? t.title ?? '').slice(0, 2 * MAX_DESCRIPTION))
        .slice(0, MAX_DESCRIPTION)
        .join(''),
    ),
    inputSchema: { ...(neutralValues(t.inputSchema) as Record<string, unknown>), type: 'object' },
  };
  if (t.annotations?.readOnlyHint !== undefined) info.readOnlyHint = t.annotations.readOnlyHint;
  if (t.annotations?.destructiveHint !== undefined) info.destructiveHint = t.annotations.destructiveHint;
  return info;
}

const b64Bytes = (data: string): number => Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);

type Part = { type: string; [k: string]: unknown };

/** Text parts verbatim, binary parts as a short summary; structured content when there is nothing else. */
export function formatContent(content: unknown, structured?: unknown): string {
  const parts = Array.isArray(content) ? (content as Part[]) : [];
  const str = (o: Record<string, unknown>, k: string): string => (typeof o[k] === 'string' ? o[k] : '');
  const out = parts.map((p) => {
    if (p.type === 'text') return str(p, 'text');
    if (p.type === 'image' || p.type === 'audio') return `[${str(p, 'mimeType') || p.type}, ${b64Bytes(str(p, 'data'))} bytes]`;
    if (p.type === 'resource_link') return `[resource link: ${str(p, 'name')} ${str(p, 'uri')}]`;
    if (p.type !== 'resource') return `[${String(p.type)} content]`;
    const r = (p.resource ?? {}) as Record<string, unknown>;
    if (typeof r.text === 'string') return `[resource ${str(r, 'uri')}]\n${r.text}`;
    const size = typeof r.blob === 'string' ? `, ${b64Bytes(r.blob)} bytes` : '';
    return `[resource ${str(r, 'uri')}${r.mimeType ? `, ${str(r, 'mimeType')}` : ''}${size}]`;
  });
  if (out.length === 0 && structured !== undefined) return JSON.stringify(structured);
  return out.join('\n');
}
