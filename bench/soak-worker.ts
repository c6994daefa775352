/**
 * One soak worker (see bench/soak.ts): a real process doing random memory operations on a shared
 * memory.jsonl until SIGTERM (finish the current operation, then exit) or SIGKILL (the point).
 *
 * Most operations go through the store API in this process; about one in five runs the real CLI
 * (`node bin/aish.cjs --data-dir D memory …`) and parses what it prints. Every operation is journalled
 * to this incarnation's own append-only file, fsynced, one JSON line each:
 *   {t:'intent', seq, op, via, target?, time}         before the call
 *   {t:'ack', seq, op, via, time, id?, hash?, …}      after it returned / the CLI exited 0
 *   {t:'refused'|'noop'|'error', seq, op, via, time, …}
 * so the driver knows what was acknowledged, what was refused, and what a kill cut short.
 * The rare `tear` operation writes half a record under the lock and SIGKILLs its own process.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LockBusyError, LockLostError, withLock } from '../src/memory/log/lock';
import { loadMemory, MemoryStore, type MemorySnapshot } from '../src/memory/store';
import type { MemoryKind } from '../src/memory/types';

export interface SoakWorkerArgs {
  index: number;
  gen: number;
  seed: number;
  memPath: string;
  dataDir: string;
  journal: string;
  bin: string;
  home: string;
  waitMs: number;
  /** Share of operations run through the CLI (0..1). */
  cliShare: number;
}

export type Op = 'add' | 'forget' | 'edit' | 'compact' | 'inject' | 'clear' | 'tear';
export type Via = 'api' | 'cli';

/** Hash of the exact string (JSON escapes lone surrogates, so they hash as themselves). */
export function contentHash(s: string): string {
  return createHash('sha256').update(JSON.stringify(s)).digest('hex').slice(0, 16);
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// Only run as a worker when started as one (soak.ts imports the helpers above).
if (process.argv[2]?.startsWith('{') && process.env.AISH_SOAK_WORKER === '1')
  await runWorker(JSON.parse(process.argv[2]) as SoakWorkerArgs);

async function runWorker(a: SoakWorkerArgs): Promise<void> {
  const rnd = mulberry32(a.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const jfd = openSync(a.journal, 'a', 0o600);
  const journal = (rec: Record<string, unknown>) => {
    writeSync(jfd, JSON.stringify(rec) + '\n');
    fsyncSync(jfd);
  };
  let stop = false;
  process.on('SIGTERM', () => {
    stop = true;
  });
  journal({ t: 'start', w: a.index, gen: a.gen, pid: process.pid, time: Date.now() });

  const store = MemoryStore.open(a.memPath, { lock: { waitMs: a.waitMs } });
  const seen: number[] = []; // ids seen at some point (active or not), for forgets of forgotten ids
  let seq = 0;

  const UNI = [
    'é',
    'ß',
    'ø',
    '漢字',
    'かな',
    '한국어',
    '😀',
    '👩‍💻',
    '🏳️‍🌈',
    'e\u0301',
    '\u200b',
    '\u2028',
    '\u2029',
    'עברית',
    'العربية',
    '∑∫√',
    '\ufeff',
    '"',
    '\\',
    '{',
    '}',
    "'",
    '\t',
    '\n',
    '\r\n',
    '`',
  ];
  const WORDS = [
    'deploy',
    'make',
    'release',
    'terse',
    'answers',
    'pnpm',
    'project',
    'aish',
    'memory',
    'never',
    'always',
    'prefers',
    'tests',
  ];

  /** Content with a unique, non-blank prefix; `cli` avoids what argv cannot carry (NUL, lone surrogates, >128 KiB). */
  function content(cli: boolean, s: number): string {
    const tag = `w${a.index}g${a.gen}#${s}`; // = the journal's name for the operation
    const r = rnd();
    if (r < 0.015) {
      // a 64 KiB text: big enough that a kill can land inside its write
      const unit = cli ? 'abcdefghij' : pick(['abcdefghij', 'é漢😀xyz']);
      return `${tag} ` + unit.repeat(Math.ceil(65_536 / unit.length)).slice(0, 65_536);
    }
    const parts: string[] = [tag];
    const len = 1 + Math.floor(rnd() * (r < 0.3 ? 40 : 8));
    for (let i = 0; i < len; i++) parts.push(rnd() < 0.35 ? pick(UNI) : pick(WORDS));
    if (!cli && rnd() < 0.05) parts.push(pick(['\u0000', '\ud800', '\udfff', '\u0007', '\u007f']));
    return parts.join(rnd() < 0.8 ? ' ' : '');
  }

  const kinds: readonly MemoryKind[] = ['fact', 'pref', 'context'];

  function activeIds(snap: MemorySnapshot): number[] {
    return snap.items.map((i) => i.id);
  }

  function chooseTarget(): number {
    const snap = store.reload();
    const ids = activeIds(snap);
    for (const id of ids) if (seen.length < 50_000) seen.push(id);
    const r = rnd();
    if (r < 0.75 && ids.length) return pick(ids);
    if (r < 0.9 && seen.length) return pick(seen); // often already forgotten
    return snap.maxId + 1 + Math.floor(rnd() * 1000); // unknown (for now)
  }

  function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [a.bin, '--data-dir', a.dataDir, 'memory', ...args], {
        env: {
          PATH: process.env.PATH,
          HOME: a.home,
          XDG_CONFIG_HOME: join(a.home, '.config'),
          XDG_DATA_HOME: join(a.home, '.local', 'share'),
          XDG_CACHE_HOME: join(a.home, '.cache'),
          LANG: 'C.UTF-8',
          TERM: 'dumb',
          CI: 'true',
          AISH_LOCK_WAIT_MS: String(a.waitMs),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  const BUSY_RE = /held by another aish process/;
  const LOST_RE = /lost the lock/;

  type Outcome = Record<string, unknown> & { t: 'ack' | 'refused' | 'noop' | 'error' | 'violation' };

  function fromError(err: unknown): Outcome {
    if (err instanceof LockBusyError) return { t: 'refused', reason: 'busy' };
    if (err instanceof LockLostError) return { t: 'refused', reason: 'lost' };
    return { t: 'error', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }

  function fromCli(
    r: { code: number | null; stdout: string; stderr: string },
    ok: (stdout: string) => Outcome | undefined,
    noop?: RegExp,
  ): Outcome {
    if (r.code === 0) {
      const o = ok(r.stdout.trim());
      if (o) return o;
      return { t: 'error', message: `unexpected CLI output: ${r.stdout.slice(0, 200)} / ${r.stderr.slice(0, 200)}` };
    }
    if (r.code === 1 && BUSY_RE.test(r.stderr)) return { t: 'refused', reason: 'busy' };
    if (r.code === 1 && LOST_RE.test(r.stderr)) return { t: 'refused', reason: 'lost' };
    if (r.code === 1 && noop?.test(r.stderr)) return { t: 'noop', reason: r.stderr.trim().slice(0, 120) };
    return { t: 'error', message: `CLI exit ${r.code}: ${r.stderr.trim().slice(0, 300)}` };
  }

  /** A fresh full load must never throw, and shows no duplicate ids. */
  function checkFresh(snap: MemorySnapshot, what: string): string | undefined {
    const ids = new Set<number>();
    for (const it of snap.items) {
      if (ids.has(it.id)) return `${what}: id ${it.id} twice among active items`;
      ids.add(it.id);
    }
    const dup = snap.skipped.find((s) => /duplicate id/.test(s.reason));
    if (dup) return `${what}: line ${dup.line}: ${dup.reason}`;
    return undefined;
  }

  async function doOp(op: Op, via: Via, s: number): Promise<Outcome> {
    switch (op) {
      case 'add': {
        const kind = pick(kinds);
        const raw = content(via === 'cli', s);
        if (via === 'api') {
          const tags = rnd() < 0.1 ? { tags: ['soak', `w${a.index}`] } : {};
          try {
            const it = await store.add(kind, raw, tags);
            if (it.content !== raw || it.kind !== kind)
              return { t: 'violation', message: `add returned ${JSON.stringify(it).slice(0, 200)}` };
            return { t: 'ack', id: it.id, hash: contentHash(raw), kind };
          } catch (err) {
            return fromError(err);
          }
        }
        const text = raw.trim();
        const r = await cli(['add', kind, '--', raw]);
        return fromCli(r, (out) => {
          const m = /^added (\d+) \((fact|pref|context)\)$/.exec(out);
          return m && m[2] === kind ? { t: 'ack', id: Number(m[1]), hash: contentHash(text), kind } : undefined;
        });
      }
      case 'forget': {
        const target = chooseTarget();
        journal({ t: 'intent', seq: s, op, via, target, time: Date.now() });
        if (via === 'api') {
          try {
            const r = await store.forget(target);
            return r.ok ? { t: 'ack', target, id: r.tombstone.id } : { t: 'noop', target, reason: r.reason };
          } catch (err) {
            return fromError(err);
          }
        }
        const r = await cli(['forget', String(target)]);
        return fromCli(r, (out) => (out === `forgot ${target}` ? { t: 'ack', target } : undefined), /no memory item|already forgotten/);
      }
      case 'edit': {
        const target = chooseTarget();
        const raw = content(via === 'cli', s);
        journal({ t: 'intent', seq: s, op, via, target, time: Date.now() });
        if (via === 'api') {
          try {
            const r = await store.edit(target, raw);
            if (!r.ok) return { t: 'noop', target, reason: r.reason };
            if (r.replaced.id !== target) return { t: 'violation', message: `edit of ${target} replaced ${r.replaced.id}` };
            return { t: 'ack', target, id: r.item.id, hash: contentHash(raw), kind: r.item.kind };
          } catch (err) {
            return fromError(err);
          }
        }
        const text = raw.trim();
        const r = await cli(['edit', String(target), '--', raw]);
        return fromCli(
          r,
          (out) => {
            const m = /^replaced (\d+) with (\d+) \((fact|pref|context)\)$/.exec(out);
            return m && Number(m[1]) === target ? { t: 'ack', target, id: Number(m[2]), hash: contentHash(text), kind: m[3] } : undefined;
          },
          /no memory item|is forgotten/,
        );
      }
      case 'clear': {
        if (via === 'api') {
          try {
            const gone = await store.clear();
            return gone.length ? { t: 'ack', cleared: gone.map((i) => i.id) } : { t: 'noop', reason: 'empty' };
          } catch (err) {
            return fromError(err);
          }
        }
        const r = await cli(['clear', '--yes']);
        if (r.code === 0 && /already empty/.test(r.stdout)) return { t: 'noop', reason: 'empty' };
        return fromCli(r, (out) => {
          const m = /^forgot (\d+) items?$/.exec(out);
          return m ? { t: 'ack', clearedCount: Number(m[1]) } : undefined;
        });
      }
      case 'compact': {
        if (via === 'api') {
          try {
            const r = await store.compact();
            const after = store.snapshot();
            if (after.maxId < r.maxId)
              return { t: 'violation', message: `maxId ${after.maxId} after compaction that kept maxId ${r.maxId}` };
            return { t: 'ack', kept: r.kept, removed: r.removed, rejected: r.rejected, maxId: r.maxId };
          } catch (err) {
            return fromError(err);
          }
        }
        const r = await cli(['compact']);
        return fromCli(r, (out) => {
          const m = /^compacted memory\.jsonl: kept (\d+) items?, dropped (\d+) forgotten records?(?:, moved (\d+) unreadable)?/.exec(out);
          return m ? { t: 'ack', kept: Number(m[1]), removed: Number(m[2]), rejected: Number(m[3] ?? 0) } : undefined;
        });
      }
      case 'tear': {
        // A crash in the middle of an append, made certain: under the lock, write the first part of
        // the next record the way the store appends (O_APPEND, on a fresh line), then SIGKILL
        // ourselves while still holding the lock. (A random kill rarely lands inside a write.)
        return withLock(
          store.path,
          () => {
            const id = store.reload().maxId + 1;
            const line = Buffer.from(
              JSON.stringify({ id, ts: new Date().toISOString(), kind: pick(kinds), content: content(false, s) }),
              'utf8',
            );
            const cut = 1 + Math.floor(rnd() * (line.length - 1)); // never the whole line: it must stay broken
            const fd = openSync(a.memPath, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
            const size = fstatSync(fd).size;
            const last = Buffer.alloc(1);
            if (size > 0) readSync(fd, last, 0, 1, size - 1);
            const payload = Buffer.concat([size > 0 && last[0] !== 0x0a ? Buffer.from('\n') : Buffer.alloc(0), line.subarray(0, cut)]);
            writeSync(fd, payload);
            fdatasyncSync(fd);
            process.kill(process.pid, 'SIGKILL');
            return { t: 'error' as const, message: 'survived SIGKILL' };
          },
          { waitMs: a.waitMs, staleMs: 10_000 },
        ).catch(fromError);
      }
      case 'inject': {
        if (via === 'cli') {
          const r = await cli(['list', '--json']);
          if (r.code !== 0) return fromCli(r, () => undefined);
          let items: Array<{ id: number }>;
          try {
            items = JSON.parse(r.stdout) as Array<{ id: number }>;
          } catch {
            return { t: 'violation', message: `list --json printed no JSON: ${r.stdout.slice(0, 200)}` };
          }
          if (new Set(items.map((i) => i.id)).size !== items.length) return { t: 'violation', message: 'list --json shows an id twice' };
          return { t: 'ack', items: items.length };
        }
        let fresh: MemorySnapshot;
        try {
          fresh = loadMemory(a.memPath);
        } catch (err) {
          return { t: 'violation', message: `loadMemory threw: ${(err as Error).stack}` };
        }
        const bad = checkFresh(fresh, 'fresh load');
        if (bad) return { t: 'violation', message: bad };
        if (rnd() < 0.5) {
          // Under the lock nobody writes: the incrementally refreshed store must equal a fresh full load.
          try {
            const msg = await withLock(
              store.path,
              () => {
                const inc = store.reload();
                const full = loadMemory(a.memPath);
                const sig = (m: MemorySnapshot) => JSON.stringify([m.items, m.skipped.map((x) => x.line), m.maxId]);
                if (sig(inc) !== sig(full)) {
                  return `incremental store differs from a fresh load under the lock: ${inc.items.length} vs ${full.items.length} items, maxId ${inc.maxId} vs ${full.maxId}, skipped ${JSON.stringify(inc.skipped).slice(0, 300)} vs ${JSON.stringify(full.skipped).slice(0, 300)}`;
                }
                return undefined;
              },
              { waitMs: a.waitMs, staleMs: 10_000 },
            );
            if (msg) return { t: 'violation', message: msg };
          } catch (err) {
            return fromError(err);
          }
        }
        return { t: 'ack', items: fresh.items.length, skipped: fresh.skipped.length };
      }
    }
  }

  while (!stop) {
    const r = rnd();
    const op: Op =
      r < 0.45
        ? 'add'
        : r < 0.65
          ? 'forget'
          : r < 0.8
            ? 'edit'
            : r < 0.962
              ? 'inject'
              : r < 0.996
                ? 'compact'
                : r < 0.997
                  ? 'clear'
                  : 'tear';
    const via: Via = op !== 'tear' && rnd() < a.cliShare ? 'cli' : 'api';
    const s = seq++;
    // forget/edit journal their intent themselves, once the target is chosen
    if (op !== 'forget' && op !== 'edit') journal({ t: 'intent', seq: s, op, via, time: Date.now() });
    let outcome: Outcome;
    try {
      outcome = await doOp(op, via, s);
    } catch (err) {
      outcome = { t: 'error', message: `threw: ${(err as Error).stack ?? String(err)}` };
    }
    journal({ ...outcome, seq: s, op, via, time: Date.now() });
    if (rnd() < 0.3) await new Promise((res) => setTimeout(res, Math.floor(rnd() * 20)));
  }
  closeSync(jfd);
  store.close();
  process.exit(0);
}
