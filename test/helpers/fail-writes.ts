/**
 * Injected write failures for unit tests: `fs.writeSync` calls whose data contains `marker` write
 * `okBytes` for real (a short write, as a filling disk does), then throw `code`. Named imports of
 * node:fs see the replacement too (syncBuiltinESMExports). Returns the undo.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { vi } from 'vitest';

export function failWritesContaining(marker: string, okBytes: number, code = 'ENOSPC'): () => void {
  const real = fs.writeSync.bind(fs) as (fd: number, buf: NodeJS.ArrayBufferView, off: number, len: number) => number;
  let written = 0;
  const fake = (fd: number, data: unknown, off?: unknown, len?: unknown): number => {
    // The string form, writeSync(fd, string, position?, encoding?), as the same bytes in the Buffer
    // form at the current offset (its callers write fresh files from the start).
    if (typeof data === 'string') {
      const b = Buffer.from(data, typeof len === 'string' ? (len as BufferEncoding) : 'utf8');
      return fake(fd, b, 0, b.length);
    }
    if (!ArrayBuffer.isView(data)) throw new Error('failWritesContaining: only Buffer and string writes are faked');
    const buf = data;
    const offset = typeof off === 'number' ? off : 0;
    const length = typeof len === 'number' ? len : buf.byteLength - offset;
    const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    const view = buf as NodeJS.ArrayBufferView;
    if (!bytes.includes(marker)) return real(fd, view, offset, length);
    if (written >= okBytes) throw Object.assign(new Error(`${code}: injected failure, write`), { code, errno: -28, syscall: 'write' });
    const n = real(fd, view, offset, Math.min(length, okBytes - written));
    written += n;
    return n;
  };
  const spy = vi.spyOn(fs, 'writeSync').mockImplementation(fake);
  syncBuiltinESMExports();
  return () => {
    spy.mockRestore();
    syncBuiltinESMExports();
  };
}
