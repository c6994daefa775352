/**
 * What of a server's tools aish offers the model. A model API takes at most 128 tools a request
 * and every tool costs each request its schema: a server offering thousands, or one schema of
 * megabytes, must not crowd out the rest or make every request fail.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CONTROL_CHARS } from '../../util/text';
import { unusable } from './tool-info';

/** Tools offered from one server, and from all servers together. */
const MAX_SERVER_TOOLS = 100;
export const MAX_ALL_TOOLS = 120;
/** Tools read from tools/list: past this many the rest is not fetched. */
const MAX_LISTED = 1000;
/** Progress keeps a call alive past its timeout, up to this many times it. */
export const MAX_TOTAL_FACTOR = 10;

/** Every page of tools/list, up to MAX_LISTED tools; `more` when the server had more. */
export async function listAll(client: Client, timeout: number): Promise<{ tools: Tool[]; more: boolean }> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100 && tools.length < MAX_LISTED; page++) {
    const res = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout });
    for (const t of res.tools) tools.push(t); // a server decides the page size: no spread of it into arguments
    cursor = res.nextCursor;
    if (!cursor) break;
  }
  // Task-only tools need the experimental tasks API, which plain tools/call cannot drive.
  return { tools: tools.filter((t) => t.execution?.taskSupport !== 'required'), more: cursor !== undefined };
}

/** The tools offered (usable schemas, at most MAX_SERVER_TOOLS) and a note on the rest, one line. */
export function offer(listed: Tool[], more: boolean): { tools: Tool[]; note?: string } {
  const bad: string[] = [];
  const good = listed.filter((t) => {
    const why = unusable(t);
    if (why) bad.push(`${t.name.replace(CONTROL_CHARS, '').slice(0, 60)} (${why})`);
    return !why;
  });
  const notes: string[] = [];
  if (good.length > MAX_SERVER_TOOLS || more) {
    const n = listed.length.toLocaleString('en-US');
    notes.push(`offers ${more ? `over ${n}` : n} tools; the first ${MAX_SERVER_TOOLS} are used`);
  }
  if (bad.length) notes.push(`not used: ${bad.slice(0, 3).join(', ')}${bad.length > 3 ? ` and ${bad.length - 3} more` : ''}`);
  const tools = good.slice(0, MAX_SERVER_TOOLS);
  return notes.length ? { tools, note: notes.join('; ') } : { tools };
}

/** A call's timeout as one line: the idle one, or the whole one that progress cannot extend. */
export function timedOut(name: string, callTimeoutMs: number, err: unknown): string {
  const total = err instanceof Error && /total timeout/i.test(err.message);
  const s = ((total ? MAX_TOTAL_FACTOR : 1) * callTimeoutMs) / 1000;
  return `MCP tool "${name}" timed out after ${s} s${total ? ' in all (progress keeps a call going that long at most)' : ''}`;
}
