/**
 * A 404 for `/chat/completions` means one of two things: the server has that route but not the
 * model, or the base URL is wrong (Ollama at `http://127.0.0.1:11434` without `/v1` is the usual
 * slip). Servers that know the route say so about the model (`model_not_found`, "model … not
 * found", "The model `x` does not exist"); anything else — Go's `404 page not found`, an HTML
 * page, `Cannot POST`, `Invalid URL`, `{"detail":"Not Found"}` — is the route. Then one GET of
 * `…/v1/models` beside the base URL tells whether that is where the server answers.
 */

const PROBE_MS = 3000;

/** What a failed response's error object gains when the route, not the model, is missing. */
export interface NoRouteMark {
  aish_no_route: true;
  /** A base URL where the server lists models (`…/v1`), when the probe found one. */
  aish_try?: string;
  /** The server answered with a web page (HTML), not with the API. */
  aish_page?: true;
}

function speaksOfModel(body: string, message: string): boolean {
  return /model_not_found|\bmodel\b/i.test(message) || /"code"\s*:\s*"model_not_found"/.test(body);
}

function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

async function listsModels(base: string, init: RequestInit | undefined): Promise<boolean> {
  const headers = new Headers(init?.headers);
  headers.delete('content-type');
  headers.delete('content-length');
  try {
    const res = await fetch(`${base}/models`, { method: 'GET', headers, signal: AbortSignal.timeout(PROBE_MS) });
    if (!res.ok) return false;
    const json = (await res.json()) as { data?: unknown };
    return Array.isArray(json.data);
  } catch {
    return false;
  }
}

/**
 * Where the server may answer instead, in order: the base URL without a pasted `/chat/completions`,
 * with `/v1` added, and `/v1` at the server's root (`…/api`, `…/v2`, `…/v1/models`).
 */
function candidates(url: URL): string[] {
  const base = `${url.origin}${url.pathname.slice(0, -'/chat/completions'.length)}`;
  const out: string[] = [];
  if (base.endsWith('/chat/completions')) out.push(base.slice(0, -'/chat/completions'.length));
  if (!/\/v1$/.test(base)) out.push(`${base}/v1`);
  out.push(`${url.origin}/v1`);
  return [...new Set(out)].filter((c) => c !== base);
}

/**
 * The mark for a 404 (or 405) that is a missing route, or undefined when it is about the model (or
 * not a chat call). `page`: the server answered with a web page (status 200, HTML) instead.
 */
export async function noRoute(
  input: string | URL | Request,
  init: RequestInit | undefined,
  status: number,
  body: string,
  message: string,
  page = false,
): Promise<NoRouteMark | undefined> {
  if (status !== 404 && status !== 405 && !page) return undefined;
  const url = new URL(urlOf(input));
  if (!url.pathname.endsWith('/chat/completions')) return undefined;
  if (!page && speaksOfModel(body, message)) return undefined;
  const mark: NoRouteMark = { aish_no_route: true, ...(page && { aish_page: true }) };
  for (const c of candidates(url)) if (await listsModels(c, init)) return { ...mark, aish_try: c };
  return mark;
}

/** The mark on an SDK error, if its response carried one. */
export function noRouteOf(err: unknown): NoRouteMark | undefined {
  const e = (err as { error?: unknown }).error;
  if (!e || typeof e !== 'object' || (e as { aish_no_route?: unknown }).aish_no_route !== true) return undefined;
  const t = (e as { aish_try?: unknown }).aish_try;
  const page = (e as { aish_page?: unknown }).aish_page === true;
  return { aish_no_route: true, ...(typeof t === 'string' && { aish_try: t }), ...(page && { aish_page: true }) };
}
