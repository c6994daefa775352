/**
 * The SDK reads only `{"error": {"message": …}}` from a failed response: a server that says
 * `{"error": "SyntaxError", "message": "…"}`, `{"detail": "…"}` or plain text loses its words
 * (the user saw `"SyntaxError" — try again`). Failed responses are rewritten into that shape first,
 * with the server's own message, so every error line can quote it.
 */

import { noRoute } from './no-route';

const MAX = 300;

/** The server's own message in an error body (JSON of any common shape, text or HTML); '' if none. */
export function errorBodyMessage(body: string): string {
  const text = body.trim();
  if (!text) return '';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Text or an HTML error page: its words, one line; the <head>'s title only when the body says nothing (it repeats the heading).
    const words = (t: string) => clip(t.replace(/<(script|style)\b[^]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '));
    return words(text.replace(/<head\b[^]*?<\/head>/gi, ' ')) || words(text);
  }
  if (!json || typeof json !== 'object') return clip(typeof json === 'string' ? json : text);
  const o = json as Record<string, unknown>;
  const err = o.error;
  const inner = err && typeof err === 'object' ? (err as Record<string, unknown>) : {};
  const said = [inner.message, o.message, o.detail, o.msg, o.error_message].find((m) => m !== undefined && m !== null && m !== '');
  const saidText = said === undefined ? '' : typeof said === 'string' ? said : JSON.stringify(said);
  // `{"error": "SyntaxError", "message": "Unexpected token"}`: both halves say something.
  const name = typeof err === 'string' ? err : '';
  return clip(name && saidText ? `${name}: ${saidText}` : name || saidText || text);
}

function clip(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}

/** `fetch` for the SDK: a failed response's body becomes `{"error": {…, "message": the server's words}}`. */
export async function fetchReadableErrors(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, init);
  // A web page where the API should be (a web UI, a proxy's landing page): a wrong base URL, said
  // as such, not an answer that "ended before it was finished".
  const page = res.ok && /^text\/html/i.test(res.headers.get('content-type') ?? '');
  if (res.ok && !page) return res;
  const body = await res.text().catch(() => '');
  const message = page ? '' : errorBodyMessage(body);
  const mark = await noRoute(input, init, res.status, body, message, page);
  if (page && !mark) return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  if (!message && !mark) return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  let error: Record<string, unknown> = {};
  try {
    const o: unknown = JSON.parse(body);
    const e = o && typeof o === 'object' ? (o as Record<string, unknown>).error : undefined;
    if (e && typeof e === 'object') error = { ...(e as Record<string, unknown>) };
  } catch {
    // not JSON: only the message
  }
  const headers = new Headers(res.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(JSON.stringify({ error: { ...error, message, ...mark } }), {
    // An error status, so the SDK raises it (404: the route is not there).
    status: page ? 404 : res.status,
    statusText: page ? 'Not Found' : res.statusText,
    headers,
  });
}
