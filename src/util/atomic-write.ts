/**
 * Replace a file whole (write-file-atomic: a temporary file, fsync, rename), with the package
 * loaded on the first write: importing it loads node:crypto and worker_threads (~3 ms), which no
 * start needs. It is required from node_modules at that moment, like jiti, not bundled.
 */
import { createRequire } from 'node:module';

type WriteFileAtomic = typeof import('write-file-atomic');

let loaded: WriteFileAtomic | undefined;

export function writeFileAtomicSync(path: string, data: string | Buffer, opts: { mode: number; fsync?: boolean }): void {
  loaded ??= createRequire(import.meta.url)('write-file-atomic') as WriteFileAtomic;
  loaded.sync(path, data, opts);
}
