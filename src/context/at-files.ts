/**
 * `@path` in a prompt: the file's text (or a directory's listing) goes to the model as a fenced
 * block after the prompt. Only words that start with `@` and name an existing path count, so an
 * e-mail address, a lone `@` or `@someone` stay as typed; a word written like a path that names
 * nothing (`@READNE.md`, see at-intent.ts) is refused like an unreadable file. A file that cannot be attached as text
 * (binary, too big, a device or FIFO) is refused, and then nothing is sent: a prompt that refers to
 * a file the model never sees would get an answer made up about it.
 */
import { closeSync, constants, readdirSync, readSync, statSync, type Stats } from 'node:fs';
import { basename, extname, normalize, resolve } from 'node:path';
import { AishError, errnoCode } from '../util/errors';
import { fenced } from '../util/fence';
import { openRegular } from '../util/fs-safe';
import { expandHome } from '../util/paths';
import { LINE_REF, missingPathLine, writtenLikePath } from './at-intent';

export interface AtFileOptions {
  /** What relative paths are relative to: aish's directory. */
  cwd: string;
  /** Larger files are refused (config `context.maxFileBytes`). */
  maxFileBytes: number;
}

export interface AtFiles {
  /** The fenced blocks, one per distinct path, in the order first named. */
  blocks: string[];
  /** One line per reference that names a path but cannot be attached. */
  refused: string[];
}

/** Entries shown of a directory; the rest are counted. */
const MAX_LISTING = 500;
/** Punctuation that may follow a reference in a sentence ("see @README.md."). */
const TRAILING = /[.,;:!?)\]}'"`]+$/;

/** The `@` words of a prompt: at its start, after white space or an opening bracket or quote, with something after the `@`. */
export function atWords(text: string): string[] {
  return [...text.matchAll(/(?<=^|[\s(["'`])@(\S+)/g)].map((m) => m[1]!);
}

/** Every `@path` of `text` that names an existing path: attached, or refused with a reason. */
export function readAtFiles(text: string, opts: AtFileOptions): AtFiles {
  const out: AtFiles = { blocks: [], refused: [] };
  const seen = new Set<string>();
  for (const word of atWords(text)) {
    const found = locate(word, opts.cwd);
    if (!found) {
      // Nothing there: a name stays as typed, a path with a typo stops the prompt.
      const ref = word.replace(TRAILING, '').replace(LINE_REF, '');
      if (writtenLikePath(ref, opts.cwd) && !seen.has(`missing:${ref}`)) {
        seen.add(`missing:${ref}`);
        out.refused.push(missingPathLine(ref, opts.cwd));
      }
      continue;
    }
    if (seen.has(found.abs)) continue;
    seen.add(found.abs);
    const r = attach(found.ref, found.abs, found.stats, opts.maxFileBytes);
    if (r.ok) out.blocks.push(r.block);
    else out.refused.push(`@${found.ref}: ${r.reason} — not attached`);
  }
  return out;
}

/**
 * The prompt with its `@path` attachments after it. A refusal is reported through `refused` (one
 * line each) and then thrown, so the prompt is not sent.
 */
export function withAtFiles(text: string, opts: AtFileOptions, refused: (line: string) => void): string {
  const r = readAtFiles(text, opts);
  if (r.refused.length > 0) {
    r.refused.forEach((line) => refused(line));
    throw new AishError(
      `prompt not sent: ${r.refused.length === 1 ? 'a file' : `${r.refused.length} files`} could not be attached — remove the @ or name another file`,
    );
  }
  return r.blocks.length ? `${text}\n\n${r.blocks.join('\n\n')}` : text;
}

/**
 * The path a word names, trying it whole, then without trailing punctuation, then without a line
 * reference (`@src/main.ts:12`: the whole file goes, the prompt keeps the line); null when nothing is there.
 */
function locate(word: string, cwd: string): { ref: string; abs: string; stats: Stats | null } | null {
  const stripped = word.replace(TRAILING, '');
  for (const ref of new Set([word, stripped, stripped.replace(LINE_REF, '')].filter(Boolean))) {
    const abs = resolve(cwd, expandHome(ref));
    try {
      // stat, not open: opening a FIFO would block, and a device is never read from.
      return { ref, abs, stats: statSync(abs) };
    } catch (err) {
      const code = errnoCode(err);
      if (code === 'EACCES' || code === 'ELOOP') return { ref, abs, stats: null };
      // ENOENT, ENOTDIR, ENAMETOOLONG…: not a path, just a word that starts with @.
    }
  }
  return null;
}

type Attached = { ok: true; block: string } | { ok: false; reason: string };

function attach(ref: string, abs: string, stats: Stats | null, maxBytes: number): Attached {
  if (!stats) return { ok: false, reason: 'cannot be read (permission denied or a symlink loop)' };
  if (stats.isDirectory()) return listing(ref, abs);
  if (!stats.isFile()) return { ok: false, reason: `not a regular file (${kindOf(stats)})` };
  if (stats.size > maxBytes) return { ok: false, reason: `${size(stats.size)}, over context.maxFileBytes (${size(maxBytes)})` };
  let buf: Buffer;
  try {
    buf = readCapped(abs, maxBytes);
  } catch (err) {
    return { ok: false, reason: errnoCode(err) === 'EACCES' ? 'permission denied' : `cannot be read (${errnoCode(err) ?? 'error'})` };
  }
  const r = attachableText(buf === OVERSIZE ? null : buf, maxBytes);
  return r.ok ? { ok: true, block: labelled(ref, language(abs), r.text) } : r;
}

/**
 * Bytes under the rules an `@file` meets (piped stdin meets them too): at most `maxBytes` — `null`
 * when more came than that, `knownSize` the total when it is known — and UTF-8 text without NULs.
 */
export function attachableText(
  buf: Buffer | null,
  maxBytes: number,
  knownSize?: number,
): { ok: true; text: string } | { ok: false; reason: string } {
  const over = `over context.maxFileBytes (${size(maxBytes)})`;
  if (buf === null || buf.length > maxBytes) return { ok: false, reason: knownSize !== undefined ? `${size(knownSize)}, ${over}` : over };
  const text = asText(buf);
  if (text === null && utf16(buf)) return { ok: false, reason: 'UTF-16 text, not UTF-8 (convert it: iconv -f UTF-16 -t UTF-8)' };
  if (text === null) return { ok: false, reason: 'binary (NUL bytes or invalid UTF-8), not text' };
  return { ok: true, text };
}

/** Text saved as UTF-16 (Windows tools, PowerShell's `>`): a byte-order mark, or ASCII with every other byte 0. */
function utf16(buf: Buffer): boolean {
  if (buf.length >= 2 && ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff))) return true;
  const head = buf.subarray(0, Math.min(buf.length, 64) & ~1);
  if (head.length < 4) return false;
  const zeroAt = (odd: number) => head.every((b, i) => (i % 2 === odd ? b === 0 : b !== 0));
  return zeroAt(1) || zeroAt(0);
}

const OVERSIZE = Buffer.alloc(0);

/** The file's bytes, at most `max`: opened without blocking and checked again, since it may have changed since stat. */
function readCapped(abs: string, max: number): Buffer {
  const fd = openRegular(abs, constants.O_RDONLY);
  try {
    // In chunks to the end, not to the size stat gave: /proc files say 0, and a file may grow.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks, total);
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > max) return OVERSIZE;
    }
  } finally {
    closeSync(fd);
  }
}

/** UTF-8 text, or null for binary: a NUL byte in the first 8 KB, or bytes that are not UTF-8. */
function asText(buf: Buffer): string | null {
  if (buf.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return null;
  }
}

function listing(ref: string, abs: string): Attached {
  let names: string[];
  try {
    names = readdirSync(abs, { withFileTypes: true })
      .map((d) => (d.isDirectory() ? `${d.name}/` : d.name))
      .sort();
  } catch (err) {
    return { ok: false, reason: `cannot be listed (${errnoCode(err) ?? 'error'})` };
  }
  const shown = names.slice(0, MAX_LISTING);
  if (names.length > shown.length) shown.push(`… ${names.length - shown.length} more`);
  // `@src/.` at the end of a sentence names src: label it so.
  const label = `${normalize(ref).replace(/\/+$/, '')}/`;
  return { ok: true, block: labelled(`${label} (directory listing)`, '', shown.length ? shown.join('\n') : '(empty)') };
}

/** A block labelled with the path; the fence is longer than any backtick run inside, so it cannot be closed early. */
export function labelled(label: string, lang: string, body: string): string {
  return `${label}:\n${fenced(body, lang)}`;
}

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'tsx',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'jsx',
  mjs: 'javascript',
  cjs: 'javascript',
  json: 'json',
  jsonl: 'json',
  md: 'markdown',
  py: 'python',
  rs: 'rust',
  go: 'go',
  rb: 'ruby',
  java: 'java',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'zsh',
  fish: 'fish',
  yml: 'yaml',
  yaml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  xml: 'xml',
  html: 'html',
  css: 'css',
  scss: 'scss',
  sql: 'sql',
  lua: 'lua',
  diff: 'diff',
  patch: 'diff',
  tf: 'hcl',
  vue: 'vue',
  svelte: 'svelte',
};
const NAMED: Record<string, string> = { Dockerfile: 'dockerfile', Makefile: 'makefile', Containerfile: 'dockerfile' };

/** The fence's language, from the file's extension or well-known name; '' when unknown. */
export function language(path: string): string {
  return NAMED[basename(path)] ?? LANGUAGES[extname(path).slice(1).toLowerCase()] ?? '';
}

function kindOf(s: Stats): string {
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isFIFO()) return 'a named pipe';
  if (s.isSocket()) return 'a socket';
  return 'not a file or directory';
}

function size(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
