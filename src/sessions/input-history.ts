/**
 * Prompt history across runs (`<data dir>/input-history`). One JSON string per line, so
 * multi-line prompts survive; appended and fsync-free (losing the last entry in a crash is fine),
 * file 0600, trimmed by an atomic rewrite when it grows past twice the limit. Secrets are redacted
 * before an entry reaches the file (↑ in the same run still recalls what was typed).
 */
import { closeSync, constants, existsSync, fchmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { appendWholeLines, ensurePrivateDir, openRegular, readRegularFile } from '../util/fs-safe';
import { parseJsonLine } from '../util/line-warnings';
import { redactSecrets } from '../util/secrets/redact';

const LIMIT = 1000;
/**
 * Longer entries (a 5 MB paste) stay in this run's ↑ but are not written: every start reads the
 * file before the first prompt.
 */
const MAX_ENTRY_BYTES = 64 * 1024;

function loadInputHistory(path: string): string[] {
  let text: string;
  try {
    // A FIFO in its place would block the read (and an append) for ever: history is then off.
    text = readRegularFile(path).toString('utf8');
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    // A hand-written plain line is still history (and costs no exception: parseJsonLine).
    const parsed = parseJsonLine(line);
    if (!parsed.ok) out.push(line);
    else if (typeof parsed.value === 'string') out.push(parsed.value);
  }
  return out.slice(-LIMIT);
}

function isPlainFileOrMissing(path: string): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  return st === undefined || st.isFile();
}

/** An entry as the file keeps it: secrets redacted, one JSON string per line. */
const line = (entry: string) => JSON.stringify(redactSecrets(entry).text) + '\n';

export class InputHistory {
  readonly entries: string[];
  private written = 0;

  constructor(private readonly path: string) {
    this.entries = loadInputHistory(path);
    this.written = this.entries.length;
  }

  add(entry: string): void {
    if (!entry.trim() || this.entries[this.entries.length - 1] === entry) return;
    this.entries.push(entry);
    try {
      if (!isPlainFileOrMissing(this.path) || Buffer.byteLength(entry) > MAX_ENTRY_BYTES) return;
      ensurePrivateDir(dirname(this.path));
      const created = !existsSync(this.path);
      // Whole lines, cut back on failure: a full disk must not leave half an entry for the next
      // one to be glued to.
      const fd = openRegular(this.path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
      try {
        if (created) fchmodSync(fd, 0o600);
        appendWholeLines(fd, line(entry), '', false);
      } finally {
        closeSync(fd);
      }
      if (++this.written > LIMIT * 2) {
        const keep = this.entries.slice(-LIMIT);
        writeFileAtomicSync(this.path, keep.map(line).join(''), { mode: 0o600 });
        this.written = keep.length;
      }
    } catch {
      // History is a convenience; never let it break the prompt.
    }
  }
}
