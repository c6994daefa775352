/**
 * This writer's own file in the repository, in parts (paths.ts): what lies past the bytes we know
 * we pushed, and where the next lines go.
 */
import { appendFileSync, existsSync, lstatSync, mkdirSync, statSync } from 'node:fs';
import { AishError } from '../../util/errors';
import { dirname } from 'node:path';
import type { Outgoing } from './outbox';
import { PART_BYTES, partKey, writerFile } from './paths';
import { readTail } from './tail';
import { SYNC_FORMAT } from './wire';
import { anythingAt } from '../../util/fs-safe';

/** A file's size; 0 when there is none. */
const fileSize = (p: string): number => (existsSync(p) ? statSync(p).size : 0);

export interface OwnTail {
  /** Records past what we know we pushed (normally none); a line we cannot read is a record with no uid. */
  records: Outgoing[];
  /** The last part that exists, and its size. */
  part: number;
  bytes: number;
}

/**
 * What the remote holds under our id past `pushed` bytes of part `part`: the rest of that part and
 * any part after it. Read like any writer file (tail.ts); a part that is not a regular file holds
 * nothing we sent (appendOwn refuses to write to it).
 */
export function ownTail(repo: string, writer: string, part: number, pushed: number): OwnTail {
  const records: Outgoing[] = [];
  let last = part;
  for (let p = part; anythingAt(writerFile(repo, writer, p)); p++) {
    last = p;
    const from = p === part ? pushed : 0;
    const tail = readTail(writerFile(repo, writer, p), from);
    if (!tail || tail.from < from) continue;
    records.push(...tail.records);
    for (let i = 0; i < tail.bad; i++) records.push({ uid: '', hlc: '', ts: '', kind: 'forget', target_uid: '' });
  }
  return { records, part: last, bytes: fileSize(writerFile(repo, writer, last)) };
}

/** Read positions that make another writer's reading of our parts start after `pushed` bytes of part `part`. */
export function readUpTo(repo: string, writer: string, part: number, pushed: number): Record<string, number> {
  const read: Record<string, number> = { [partKey(writer, part)]: pushed };
  for (let p = 1; p < part; p++) read[partKey(writer, p)] = fileSize(writerFile(repo, writer, p));
  return read;
}

/**
 * Append `text` to our current part, or to a new one when it would pass PART_BYTES. Returns the
 * file written, its part, and whether git tracks it already (a new part needs `git add`).
 */
export function appendOwn(
  repo: string,
  writer: string,
  part: number,
  text: string,
  name?: string,
): { path: string; part: number; existed: boolean } {
  let p = part;
  const current = fileSize(writerFile(repo, writer, p));
  if (current > 0 && current + Buffer.byteLength(text) > PART_BYTES) p++;
  const path = writerFile(repo, writer, p);
  const existed = anythingAt(path);
  // Our file as a link (someone's commit): appending would write wherever it points.
  if (existed && !lstatSync(path).isFile())
    throw new AishError(`memory sync: ${path} is not a regular file in the repository — nothing pushed; remove it from the repository`);
  const header = existed
    ? ''
    : JSON.stringify({ meta: { format: SYNC_FORMAT, version: 1, writer, part: p, ...(name && { name }) } }) + '\n';
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  appendFileSync(path, header + text);
  return { path, part: p, existed };
}
