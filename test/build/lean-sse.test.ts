/**
 * The build's patch of the openai SDK's SSE reader (scripts/lean-sse.mjs) must apply to the
 * installed SDK, yield the same events as the original however the bytes are split into reads, and
 * stop copying the rest of a read once per event (the copies that grew RSS in long sessions).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from '../helpers/paths';

interface Sse {
  event: string | null;
  data: string;
}
type Iterate = (response: Response, controller: AbortController) => AsyncGenerator<Sse>;

const CORE = join(ROOT, 'node_modules', 'openai', 'core');
const written: string[] = [];
afterAll(() => written.forEach((f) => rmSync(f, { force: true })));

/** The original and the patched reader; the patched file sits beside the original so its imports resolve the same. */
async function load(): Promise<{ original: Iterate; patched: Iterate; changed: boolean }> {
  const { leanSse } = (await import(pathToFileURL(join(ROOT, 'scripts', 'lean-sse.mjs')).href)) as { leanSse: (s: string) => string };
  const source = readFileSync(join(CORE, 'streaming.mjs'), 'utf8');
  const patchedSource = leanSse(source);
  const file = join(CORE, `.lean-sse-test-${process.pid}.mjs`);
  writeFileSync(file, patchedSource);
  written.push(file);
  const original = ((await import(pathToFileURL(join(CORE, 'streaming.mjs')).href)) as { _iterSSEMessages: Iterate })._iterSSEMessages;
  const patched = ((await import(pathToFileURL(file).href)) as { _iterSSEMessages: Iterate })._iterSSEMessages;
  return { original, patched, changed: patchedSource !== source };
}

/** A response whose body arrives in the given reads. */
const response = (reads: Uint8Array[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const r of reads) c.enqueue(r);
        c.close();
      },
    }),
  );

async function events(iterate: Iterate, reads: Uint8Array[]): Promise<Sse[]> {
  const out: Sse[] = [];
  for await (const e of iterate(response(reads), new AbortController())) out.push({ event: e.event, data: e.data });
  return out;
}

/** A model's stream: one small chunk an event, some multi-byte text, \n\n and \r\n\r\n endings, a [DONE]. */
const body = new TextEncoder().encode(
  [
    ...Array.from({ length: 300 }, (_, i) => `data: {"choices":[{"index":0,"delta":{"content":"tok${i} 日本😀"}}]}\n\n`),
    'event: ping\r\ndata: {}\r\n\r\n',
    'data: {"a":1}\ndata: {"b":2}\n\n',
    'data: [DONE]\n\n',
  ].join(''),
);

/** The body cut into reads of `size` bytes (cuts fall inside events and inside characters). */
const split = (size: number) => Array.from({ length: Math.ceil(body.length / size) }, (_, i) => body.slice(i * size, (i + 1) * size));

it('applies to the installed SDK and yields what the original yields, however the reads fall', async () => {
  const { original, patched, changed } = await load();
  expect(changed).toBe(true);
  for (const size of [1, 3, 7, 64, 250, 4096, body.length]) {
    const want = await events(original, split(size));
    expect(want.length).toBe(303);
    expect(await events(patched, split(size)), `reads of ${size} bytes`).toEqual(want);
  }
});

it('does not copy the rest of a read for each event in it', async () => {
  const { original, patched } = await load();
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, below
  const slice = Uint8Array.prototype.slice;
  let copies = 0;
  Uint8Array.prototype.slice = function (this: Uint8Array, ...args: Parameters<Uint8Array['slice']>) {
    copies++;
    return slice.apply(this, args);
  };
  try {
    await events(original, [body]);
    const before = copies;
    copies = 0;
    await events(patched, [body]);
    expect(before).toBeGreaterThan(300); // the original: two copies an event
    expect(copies).toBe(0);
  } finally {
    Uint8Array.prototype.slice = slice;
  }
});
