/**
 * The model's two memory tools. `memory_search` only reads, so it runs unasked; `memory_remember`
 * writes the user's memory, so the gate asks (`remember? [y/N]`, after a line showing the text)
 * and refuses when nobody can answer — never on its own, not even in Norris with --yes. What is
 * stored goes through the same path as `:memory add`: secrets redacted, duplicates not written.
 */
import type { ToolSpec } from '../broker/types';
import { recallLine } from '../memory/background/blocks';
import type { MemorySession } from '../memory/session';
import { isMemoryKind, MEMORY_KINDS, type MemoryKind } from '../memory/types';
import { formatError } from '../util/errors';
import { oneLine, sanitizeForBlock } from '../util/text';
import type { Tool, ToolCall } from './tool';

const SEARCH_LIMIT = 10;
const MAX_CONTENT = 1000;

function parse(rawArgs: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(rawArgs || '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : 'arguments must be a JSON object';
  } catch {
    return 'arguments are not valid JSON';
  }
}

/** A function tool's spec: name, what it does, its object parameters (all required). */
function functionSpec(name: string, description: string, properties: Record<string, object>): ToolSpec {
  return {
    type: 'function',
    function: { name, description, parameters: { type: 'object', properties, required: Object.keys(properties) } },
  };
}

export class MemorySearchTool implements Tool {
  readonly name = 'memory_search';
  readonly spec = functionSpec(
    this.name,
    "Search the user's long-term memory (facts, preferences, project context) for items relevant to a query. Returns ids and text.",
    { query: { type: 'string', description: 'what to look for' } },
  );

  constructor(private readonly memory: MemorySession) {}

  async prepare(rawArgs: string): Promise<ToolCall | { error: string }> {
    const a = parse(rawArgs);
    if (typeof a === 'string') return { error: a };
    if (typeof a.query !== 'string' || !a.query.trim()) return { error: 'query must be a non-empty string' };
    const query = a.query.trim();
    return {
      title: `memory_search "${oneLine(query, 80)}"  (read-only)`,
      subject: 'memory_search',
      gate: { kind: 'memory', destructive: false, readOnly: true },
      run: async () => {
        try {
          await this.memory.ready();
          const hits = await this.memory.search(query, SEARCH_LIMIT, { here: true });
          const lines = hits.map((h) => recallLine(h.item));
          const text = lines.length ? lines.join('\n') : 'No memory item matches.';
          return { content: text, status: `${hits.length} item${hits.length === 1 ? '' : 's'}`, output: text };
        } catch (err) {
          const text = `memory search failed: ${formatError(err)}`;
          return { content: `Error: ${text}`, status: 'error', output: text };
        }
      },
    };
  }
}

export class MemoryRememberTool implements Tool {
  readonly name = 'memory_remember';
  readonly spec = functionSpec(
    this.name,
    "Ask to save one durable item to the user's long-term memory (the user confirms each one). kind: fact (about the user, their environment or project), pref (how to work with them), context (project or domain context).",
    { kind: { type: 'string', enum: [...MEMORY_KINDS] }, content: { type: 'string', description: 'one self-contained sentence' } },
  );

  constructor(private readonly memory: MemorySession) {}

  async prepare(rawArgs: string): Promise<ToolCall | { error: string }> {
    const a = parse(rawArgs);
    if (typeof a === 'string') return { error: a };
    if (!isMemoryKind(a.kind)) return { error: 'kind must be fact, pref or context' };
    if (typeof a.content !== 'string' || !a.content.trim()) return { error: 'content must be non-empty text' };
    if (a.content.length > MAX_CONTENT) return { error: `content must be at most ${MAX_CONTENT} characters: one durable sentence` };
    const kind: MemoryKind = a.kind;
    const content = a.content.trim();
    return {
      title: `memory_remember (${kind}) ${sanitizeForBlock(content)}`,
      subject: 'memory_remember',
      gate: { kind: 'memory', destructive: false, readOnly: false },
      run: async () => {
        try {
          const r = await this.memory.writes().remember(kind, content);
          if (r.changed) this.memory.reselect();
          return { content: r.text, status: r.changed ? 'remembered' : 'already remembered', output: r.text };
        } catch (err) {
          const text = `not remembered: ${formatError(err)}`;
          return { content: `Error: ${text}`, status: 'error', output: text };
        }
      },
    };
  }
}
