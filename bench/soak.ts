/**
 * `npm run soak [-- --seconds N --workers N --seed N --check-every S --keep --build]`: a bounded soak run of the
 * memory store under concurrency and crashes. Not part of `npm test`.
 *
 * 8 real worker processes (bench/soak-worker.ts) do random operations on ONE memory.jsonl — add
 * (all kinds, unicode, some 64 KiB texts), forget (known, unknown and already forgotten ids), edit,
 * compact, inject (a fresh full load), rarely clear, and rarely tear (write half a record under the
 * lock, then SIGKILL itself: a crash mid-append made certain) — most through the store API, one in five
 * through the real CLI. Each worker journals every acknowledged write. Meanwhile this driver
 * SIGKILLs a random worker (its whole process group, so a CLI it runs dies too) every 0.5–3 s and
 * starts it again. Every ~10 s, and at the end, it checks the invariants against a fresh load:
 *
 *   - the file always loads (loadMemory never throws);
 *   - every line parses as JSON, or is reported in `skipped` as a torn write — at most one torn
 *     line per SIGKILL (lines moved to memory.jsonl.rejected by compaction are counted too);
 *   - no duplicate ids among valid records, and ids strictly increase in file order (a compacted
 *     file is sorted by id; everything appended after it has higher ids); no two acknowledged
 *     writes got the same id;
 *   - every acknowledged add/edit is active with the same kind and content, unless something that
 *     may have forgotten it was attempted (an acknowledged forget/edit/clear of that id, or one a
 *     kill cut short); an id whose forget/edit/clear was acknowledged is not active;
 *   - maxId never decreases, and is at least every acknowledged id.
 *
 * Prints Markdown rows for BENCHMARKS.md; exit 0 only if every invariant held, else 1 with the first
 * violation (the temp dir with the memory file and the journals is kept for inspection).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { buildSync } from 'esbuild';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  renameSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withLock } from '../src/memory/log/lock';
import { loadMemory, MemoryStore, type MemorySnapshot } from '../src/memory/store';
import { machine } from './lib';
import { contentHash, mulberry32, type Op, type SoakWorkerArgs, type Via } from './soak-worker';

const ROOT = resolve(import.meta.dirname, '..');

// ---- options ----

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const SECONDS = Number(flag('seconds') ?? 180);
const WORKERS = Number(flag('workers') ?? 8);
const SEED = Number(flag('seed') ?? Math.floor(Math.random() * 2 ** 31));
const CHECK_EVERY_MS = Number(flag('check-every') ?? 10) * 1000;
const KEEP = process.argv.includes('--keep');
/** Harness self-test: damage the file once, a third into the run; the checks must then fail. */
const FAULT = flag('fault') as 'dup' | 'drop' | 'content' | undefined;
const WAIT_MS = 3000;
if (!(SECONDS > 0) || !(WORKERS >= 1) || !Number.isFinite(SEED) || (FAULT && !['dup', 'drop', 'content'].includes(FAULT))) {
  console.error(
    'usage: npm run soak -- [--seconds N] [--workers N] [--seed N] [--check-every S] [--keep] [--build] [--fault dup|drop|content]',
  );
  process.exit(2);
}

// ---- setup ----

const dir = mkdtempSync(join(tmpdir(), 'aish-soak-'));
const dataDir = join(dir, 'data');
const home = join(dir, 'home');
const journals = join(dir, 'journals');
const logs = join(dir, 'logs');
for (const d of [dataDir, home, journals, logs]) mkdirSync(d, { recursive: true, mode: 0o700 });
const memPath = join(dataDir, 'memory.jsonl');
const rejectedPath = `${memPath}.rejected`;

// The CLI share runs `node bin/aish.cjs` from a private copy of bin/ and dist/ (inside the checkout, so
// dist's external imports still resolve): other work in this checkout may rebuild dist/ meanwhile,
// and build.mjs starts by deleting it.
const cliCopy = mkdtempSync(join(ROOT, 'node_modules', '.cache', 'aish-soak-cli-'));

if (process.argv.includes('--build')) {
  // The CLI share runs dist/: build it from the same sources the API share uses (as the tests do).
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
} else if (newestMtime(join(ROOT, 'src')) > (statSync(join(ROOT, 'dist', 'cli.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0)) {
  console.error('soak: note: dist/ is older than src/ — the CLI share runs the old build (add --build to rebuild it first)');
}

function newestMtime(d: string): number {
  let newest = 0;
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}
cpSync(join(ROOT, 'bin'), join(cliCopy, 'bin'), { recursive: true });
cpSync(join(ROOT, 'dist'), join(cliCopy, 'dist'), { recursive: true });
cpSync(join(ROOT, 'package.json'), join(cliCopy, 'package.json'));
const bin = join(cliCopy, 'bin', 'aish.cjs');
process.on('exit', () => rmSync(cliCopy, { recursive: true, force: true }));

const workerJs = join(dir, 'soak-worker.mjs');
buildSync({
  absWorkingDir: ROOT,
  entryPoints: [join(ROOT, 'bench', 'soak-worker.ts')],
  outfile: workerJs,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  // CommonJS dependencies (write-file-atomic) use require() and __filename: give them both, as scripts/build.mjs does.
  banner: {
    js: [
      "import { createRequire as __cr } from 'node:module';",
      "import { fileURLToPath as __f2p } from 'node:url';",
      'const require = __cr(import.meta.url);',
      'const __filename = __f2p(import.meta.url);',
    ].join(' '),
  },
});

const rnd = mulberry32(SEED);

// ---- workers ----

interface Incarnation {
  index: number;
  gen: number;
  journal: string;
  child: ChildProcess;
  started: number;
  /** When it was seen dead; Infinity while it runs. */
  died: number;
  killed: boolean;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const incarnations: Incarnation[] = [];
const live = new Map<number, Incarnation>();
/** SIGKILLs sent by the driver, and workers that tore a write and killed themselves (`tear`). */
let kills = 0;
let selfKills = 0;
let stopping = false;
const violations: string[] = [];

function violation(msg: string): void {
  if (violations.length === 0) console.error(`VIOLATION: ${msg}`);
  violations.push(msg);
}

const nextGen: number[] = [];

function lastIntent(journal: string): Op | undefined {
  let op: Op | undefined;
  for (const l of readFileSync(journal, 'utf8').split('\n')) {
    try {
      const r = JSON.parse(l) as { t?: string; op?: Op };
      if (r.t === 'intent') op = r.op;
    } catch {
      // the last line may be cut
    }
  }
  return op;
}

function startWorker(index: number): Incarnation {
  const gen = nextGen[index] ?? 0;
  nextGen[index] = gen + 1;
  const journal = join(journals, `w${index}-g${gen}.jsonl`);
  const args: SoakWorkerArgs = {
    index,
    gen,
    seed: (SEED ^ Math.imul(index + 1, 0x9e3779b1) ^ Math.imul(gen + 1, 0x85ebca6b)) >>> 0,
    memPath,
    dataDir,
    journal,
    bin,
    home,
    waitMs: WAIT_MS,
    cliShare: 0.2,
  };
  writeFileSync(journal, '', { mode: 0o600 });
  const errLog = join(logs, `w${index}-g${gen}.stderr`);
  const child = spawn(process.execPath, [workerJs, JSON.stringify(args)], {
    detached: true, // its own process group: a kill takes any CLI it is running along
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AISH_SOAK_WORKER: '1' },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const inc: Incarnation = {
    index,
    gen,
    journal,
    child,
    started: Date.now(),
    died: Infinity,
    killed: false,
    exit: new Promise((res) =>
      child.on('close', (code, signal) => {
        inc.died = Date.now();
        if (stderr) writeFileSync(errLog, stderr);
        if (!inc.killed && signal === 'SIGKILL' && lastIntent(journal) === 'tear') {
          // it tore a write and killed itself, as planned: start it again
          selfKills++;
          if (!stopping && live.get(index) === inc) startWorker(index);
        } else if (!inc.killed && !(stopping && code === 0)) {
          violation(
            `worker w${index} g${gen} (pid ${child.pid}) exited on its own: code ${code} signal ${signal}; stderr: ${stderr.slice(-800)}`,
          );
        }
        res({ code, signal });
      }),
    ),
  };
  incarnations.push(inc);
  live.set(index, inc);
  return inc;
}

function killGroup(inc: Incarnation): void {
  inc.killed = true;
  try {
    process.kill(-inc.child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

process.on('exit', () => {
  for (const inc of live.values()) if (inc.died === Infinity) killGroup(inc);
});
process.on('SIGINT', () => {
  console.error(`interrupted; data kept in ${dir}`);
  process.exit(130);
});

// ---- journals ----

interface Rec {
  t: 'start' | 'intent' | 'ack' | 'refused' | 'noop' | 'error' | 'violation';
  seq: number;
  op: Op;
  via: Via;
  time: number;
  target?: number;
  id?: number;
  hash?: string;
  kind?: string;
  cleared?: number[];
  clearedCount?: number;
  message?: string;
  reason?: string;
}

interface OpRecord {
  who: string;
  inc: Incarnation;
  seq: number;
  op: Op;
  via: Via;
  intent: number;
  target?: number;
  outcome?: Rec;
  /** Latest moment the operation could have taken effect. */
  end: number;
}

function readJournals(): OpRecord[] {
  const ops: OpRecord[] = [];
  for (const inc of incarnations) {
    let text: string;
    try {
      text = readFileSync(inc.journal, 'utf8');
    } catch {
      continue;
    }
    const byseq = new Map<number, OpRecord>();
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line) continue;
      let r: Rec;
      try {
        r = JSON.parse(line) as Rec;
      } catch {
        // a journal line cut by the kill (only ever the last one)
        if (i !== lines.length - 1) violation(`journal ${inc.journal}:${i + 1} unreadable`);
        continue;
      }
      if (r.t === 'start') continue;
      let o = byseq.get(r.seq);
      if (!o) {
        o = { who: `w${inc.index}g${inc.gen}#${r.seq}`, inc, seq: r.seq, op: r.op, via: r.via, intent: r.time, end: Infinity };
        byseq.set(r.seq, o);
        ops.push(o);
      }
      if (r.target !== undefined) o.target = r.target;
      if (r.t !== 'intent') {
        o.outcome = r;
        o.end = r.time;
      }
    }
    for (const o of byseq.values()) if (!o.outcome) o.end = inc.died; // cut short by a kill (or still running)
  }
  return ops;
}

// ---- invariants ----

let lastMaxId = 0;
let checksPassed = 0;
let checksRun = 0;
let lastBadLines = 0;
let tornSeen = 0;
const seenViolationsIn = new Set<string>();

function checkInvariants(final: boolean): void {
  const j1 = readJournals();
  let bytes: Buffer;
  try {
    bytes = readFileSync(memPath);
  } catch {
    bytes = Buffer.alloc(0);
  }
  let rejected = '';
  try {
    rejected = readFileSync(rejectedPath, 'utf8');
  } catch {
    // none yet
  }
  const copy = join(dir, 'check-copy.jsonl');
  writeFileSync(copy, bytes);
  let snap: MemorySnapshot;
  try {
    snap = loadMemory(copy);
    loadMemory(memPath); // the live file, too
  } catch (err) {
    violation(`loadMemory threw: ${(err as Error).stack}`);
    return;
  }
  const j2 = readJournals();
  const before = violations.length;

  // 1. every line parses or is a reported torn write; ids unique and strictly increasing
  const text = bytes.toString('utf8');
  const endsNl = text.length === 0 || text.endsWith('\n');
  const lines = text.split('\n');
  if (endsNl) lines.pop();
  const skippedAt = new Map(snap.skipped.map((s) => [s.line, s]));
  const torn = new Set<string>();
  const ids = new Set<number>();
  let prevId = 0;
  let badLines = 0;
  for (const [i, raw] of lines.entries()) {
    const lineNo = i + 1;
    if (raw.trim() === '') continue;
    let v: { id?: unknown; meta?: { maxId?: unknown } } | undefined;
    try {
      v = JSON.parse(raw) as typeof v;
    } catch {
      v = undefined;
    }
    const sk = skippedAt.get(lineNo);
    if (v === undefined) {
      badLines++;
      const isLast = i === lines.length - 1;
      if (!sk) violation(`line ${lineNo} is not JSON and was not reported as skipped: ${raw.slice(0, 120)}`);
      else if (isLast && !endsNl) {
        if (!/incomplete last line/.test(sk.reason)) violation(`unfinished last line ${lineNo} reported as "${sk.reason}"`);
        if (final) torn.add(raw); // nobody is writing any more: it is a torn write
      } else if (!/not valid JSON or JSON5/.test(sk.reason)) violation(`torn line ${lineNo} reported as "${sk.reason}"`);
      else torn.add(raw);
      continue;
    }
    if (sk) violation(`valid line ${lineNo} was skipped: ${sk.reason}`);
    if (v && typeof v === 'object' && v.id === undefined && v.meta) {
      // aish writes a header only as the first line (a new file, or a compacted one)
      if (lineNo !== 1) violation(`header on line ${lineNo}: ${raw.slice(0, 120)}`);
      const m = v.meta.maxId;
      if (typeof m === 'number' && m > snap.maxId) violation(`header maxId ${m} above the loaded maxId ${snap.maxId}`);
      continue;
    }
    const id = v?.id;
    if (typeof id !== 'number') {
      violation(`line ${lineNo} has no numeric id: ${raw.slice(0, 120)}`);
      continue;
    }
    if (ids.has(id)) violation(`duplicate id ${id} on line ${lineNo}`);
    ids.add(id);
    if (id <= prevId) violation(`ids not increasing: ${id} on line ${lineNo} after ${prevId}`);
    prevId = Math.max(prevId, id);
  }
  for (const s of snap.skipped) {
    const raw = lines[s.line - 1];
    let parses = false;
    try {
      JSON.parse(raw ?? '');
      parses = true;
    } catch {
      // expected
    }
    if (raw === undefined || raw.trim() === '' || parses)
      violation(`skipped line ${s.line} (${s.reason}) is not a broken line of the file`);
  }
  for (const l of rejected.split('\n')) if (l && !l.startsWith('// ')) torn.add(l);
  tornSeen = Math.max(tornSeen, torn.size);
  // a tear journals its intent before it writes, and j2 was read after the file
  const tears = j2.filter((o) => o.op === 'tear').length;
  if (torn.size > kills + tears)
    violation(`${torn.size} torn lines (file + .rejected) but only ${kills} kills and ${tears} self-kills mid-write`);

  // 2. maxId
  if (snap.maxId < lastMaxId) violation(`maxId went down: ${lastMaxId} -> ${snap.maxId}`);
  lastMaxId = Math.max(lastMaxId, snap.maxId);

  // 3. acknowledged writes (j1: acknowledged before the file was read) vs what may have forgotten them (j2)
  const active = new Map(snap.items.map((it) => [it.id, it]));
  interface Added {
    id: number;
    hash: string;
    kind: string;
    intent: number;
    ack: number;
    who: string;
  }
  const added = new Map<number, Added>();
  const ackedIds = new Map<number, string>();
  const claim = (id: number, who: string) => {
    const prev = ackedIds.get(id);
    if (prev) violation(`id ${id} acknowledged twice: ${prev} and ${who}`);
    ackedIds.set(id, who);
  };
  for (const o of j1) {
    const r = o.outcome;
    if (r?.t !== 'ack') continue;
    if ((o.op === 'add' || o.op === 'edit') && r.id !== undefined && r.hash) {
      claim(r.id, o.who);
      added.set(r.id, { id: r.id, hash: r.hash, kind: r.kind ?? '', intent: o.intent, ack: r.time, who: o.who });
    } else if (o.op === 'forget' && r.id !== undefined) claim(r.id, o.who);
  }
  for (const id of ackedIds.keys()) if (id > snap.maxId) violation(`acknowledged id ${id} is above maxId ${snap.maxId}`);

  // must not be active: forgotten by an acknowledged forget/edit/clear (before the file was read)
  const mustBeGone = new Map<number, string>();
  for (const o of j1) {
    const r = o.outcome;
    if (r?.t !== 'ack') continue;
    if ((o.op === 'forget' || o.op === 'edit') && o.target !== undefined) mustBeGone.set(o.target, `${o.op} by ${o.who}`);
    if (o.op === 'clear' && r.cleared) for (const id of r.cleared) mustBeGone.set(id, `clear by ${o.who}`);
    if (o.op === 'clear' && !r.cleared) for (const a of added.values()) if (a.ack < o.intent) mustBeGone.set(a.id, `CLI clear by ${o.who}`);
  }
  for (const [id, why] of mustBeGone) if (active.has(id)) violation(`id ${id} is active although ${why} was acknowledged`);

  // may have been forgotten: anything attempted (acknowledged, or cut short / still running) in j2
  const targeted = new Set<number>();
  const clears: OpRecord[] = [];
  for (const o of j2) {
    const t = o.outcome?.t;
    if (t === 'refused' || t === 'noop') continue; // nothing written, by contract
    if ((o.op === 'forget' || o.op === 'edit') && o.target !== undefined) targeted.add(o.target);
    if ((o.op === 'forget' || o.op === 'edit') && o.target === undefined) clears.push(o); // cut before choosing: treat like a clear
    if (o.op === 'clear') clears.push(o);
  }
  for (const a of added.values()) {
    if (targeted.has(a.id)) continue;
    if (clears.some((c) => (c.outcome?.t === 'ack' && c.outcome.cleared ? c.outcome.cleared.includes(a.id) : a.intent <= c.end))) continue;
    const it = active.get(a.id);
    if (!it) {
      violation(`acknowledged ${a.who} (id ${a.id}, acked at ${new Date(a.ack).toISOString()}) is not active and nothing forgot it`);
      continue;
    }
    if (contentHash(it.content) !== a.hash || it.kind !== a.kind)
      violation(`id ${a.id} (${a.who}) has other content or kind than acknowledged: ${JSON.stringify(it).slice(0, 200)}`);
  }

  // 4. what the workers found themselves
  for (const o of j2) {
    if (o.outcome?.t === 'violation' && !seenViolationsIn.has(o.who)) {
      seenViolationsIn.add(o.who);
      violation(`worker ${o.who} (${o.op} via ${o.via}): ${o.outcome.message}`);
    }
    if (o.outcome?.t === 'error' && !seenViolationsIn.has(o.who)) {
      seenViolationsIn.add(o.who);
      violation(`worker ${o.who} (${o.op} via ${o.via}) failed: ${o.outcome.message}`);
    }
  }
  checksRun++;
  if (violations.length === before) checksPassed++;
  lastBadLines = badLines;
}

// ---- run ----

const t0 = Date.now();
console.error(`soak: ${WORKERS} workers for ${SECONDS} s, seed ${SEED}, dir ${dir}`);
for (let i = 0; i < WORKERS; i++) startWorker(i);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const deadline = t0 + SECONDS * 1000;
let nextCheck = t0 + CHECK_EVERY_MS;

async function killer(): Promise<void> {
  while (Date.now() < deadline && violations.length === 0) {
    await sleep(500 + rnd() * 2500);
    if (Date.now() >= deadline) break;
    const index = Math.floor(rnd() * WORKERS);
    const inc = live.get(index)!;
    if (inc.died !== Infinity) continue; // it just killed itself (tear) and is being restarted
    kills++;
    killGroup(inc);
    await inc.exit;
    if (live.get(index) === inc) startWorker(index);
  }
}

async function checker(): Promise<void> {
  while (Date.now() < deadline && violations.length === 0) {
    await sleep(Math.max(0, Math.min(nextCheck, deadline) - Date.now()));
    if (Date.now() >= deadline) break;
    checkInvariants(false);
    nextCheck += CHECK_EVERY_MS;
    const secs = Math.round((Date.now() - t0) / 1000);
    console.error(`soak: ${secs}s, ${kills} kills, ${checksPassed} checks passed, maxId ${lastMaxId}`);
  }
}

/**
 * --fault: what a broken store could do, done by hand under the lock (so nothing tears): append a
 * second record with an existing id (dup), lose an acknowledged item (drop), or change its text
 * (content). A soak run with a fault must fail; that shows the checks can.
 */
async function fault(kind: 'dup' | 'drop' | 'content'): Promise<void> {
  await sleep((deadline - Date.now()) / 3);
  await withLock(
    memPath,
    () => {
      const acked = new Set<number>();
      const targeted = new Set<number>();
      for (const o of readJournals()) {
        if (o.outcome?.t === 'ack' && (o.op === 'add' || o.op === 'edit') && o.outcome.id !== undefined) acked.add(o.outcome.id);
        if (o.target !== undefined) targeted.add(o.target);
      }
      const text = readFileSync(memPath, 'utf8');
      const lines = text.split('\n');
      const at = lines.findIndex((l) => {
        try {
          const v = JSON.parse(l) as { id?: number; content?: string };
          return v.content !== undefined && acked.has(v.id!) && !targeted.has(v.id!);
        } catch {
          return false;
        }
      });
      if (at < 0) throw new Error('--fault: no acknowledged item in the file to damage');
      const line = lines[at]!;
      console.error(`soak: fault ${kind} on line ${at + 1}: ${line.slice(0, 100)}`);
      if (kind === 'dup') {
        appendFileSync(memPath, (text.endsWith('\n') ? '' : '\n') + line.replace(/"content":"/, '"content":"dup ') + '\n');
        return;
      }
      if (kind === 'drop') lines.splice(at, 1);
      else lines[at] = line.replace(/"content":"/, '"content":"changed ');
      writeFileSync(`${memPath}.fault`, lines.join('\n'));
      renameSync(`${memPath}.fault`, memPath);
    },
    { waitMs: 30_000, staleMs: 10_000 },
  );
}

await Promise.all([killer(), checker(), FAULT ? fault(FAULT) : undefined]);
const stopAt = Date.now();

// graceful stop: each worker finishes its operation, journals it and exits
stopping = true;
for (const inc of live.values()) inc.child.kill('SIGTERM');
for (const inc of live.values()) {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([inc.exit.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 60_000)))]);
  clearTimeout(timer);
  if (!done) {
    kills++;
    killGroup(inc);
    await inc.exit;
  }
}
const duration = (stopAt - t0) / 1000;
console.error(`soak: stopped in ${Date.now() - stopAt} ms; final check`);
checkInvariants(true);

// After all of it the store still takes a write, on a fresh line, with a new id.
let finalAdd: string;
try {
  const store = MemoryStore.open(memPath, { lock: { waitMs: 15_000 } });
  const before = store.maxId;
  const it = await store.add('fact', 'soak: the last word');
  const m = loadMemory(memPath);
  const tail = readFileSync(memPath, 'utf8').trimEnd().split('\n').pop() ?? '';
  if (it.id <= before || it.id <= lastMaxId) violation(`final add got id ${it.id}, not above maxId ${Math.max(before, lastMaxId)}`);
  else if (!m.items.some((x) => x.id === it.id) || (JSON.parse(tail) as { id?: unknown }).id !== it.id)
    violation('final add is not the last line of the file');
  finalAdd = `ok (id ${it.id})`;
} catch (err) {
  violation(`final add failed: ${(err as Error).message}`);
  finalAdd = 'failed';
}

// ---- report ----

function rejectedLines(): number {
  try {
    return readFileSync(rejectedPath, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('// ')).length;
  } catch {
    return 0;
  }
}

const ops = readJournals();
const OPS: Op[] = ['add', 'forget', 'edit', 'compact', 'inject', 'clear', 'tear'];
const count = (op: Op, pred: (o: OpRecord) => boolean) => ops.filter((o) => o.op === op && pred(o)).length;
const rows: string[][] = [];
for (const op of OPS) {
  rows.push([
    op,
    String(count(op, () => true)),
    String(count(op, (o) => o.via === 'api')),
    String(count(op, (o) => o.via === 'cli')),
    String(count(op, (o) => o.outcome?.t === 'ack')),
    String(count(op, (o) => o.outcome?.t === 'refused')),
    String(count(op, (o) => o.outcome?.t === 'noop')),
    String(count(op, (o) => !o.outcome)),
    String(count(op, (o) => o.outcome?.t === 'error' || o.outcome?.t === 'violation')),
  ]);
}
const total = (col: number) => String(rows.reduce((s, r) => s + Number(r[col]), 0));
rows.push(['**all**', ...[1, 2, 3, 4, 5, 6, 7, 8].map(total)]);

let size = 0;
try {
  size = statSync(memPath).size;
} catch {
  // none
}
const final = existsSync(memPath) ? loadMemory(memPath) : { items: [], skipped: [], maxId: 0 };
const leftovers = readdirSync(dataDir).filter((n) => n !== 'memory.jsonl' && n !== 'memory.jsonl.rejected');
const ok = violations.length === 0;

console.log(`Machine: ${machine()}`);
console.log(`Date: ${new Date().toISOString().slice(0, 10)}; seed ${SEED}\n`);
console.log(
  '| operation | attempted | via API | via CLI | acknowledged | refused (lock) | no-op (unknown / forgotten id, empty) | cut short by a kill | failed |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log('');
console.log('| soak | value |');
console.log('|---|---|');
const summary: Array<[string, string]> = [
  ['duration', `${duration.toFixed(0)} s, ${WORKERS} workers`],
  ['worker processes started', String(incarnations.length)],
  [
    'SIGKILLs',
    `${kills + selfKills}: ${kills} by the driver at random moments (worker + any CLI it ran), ${selfKills} self-inflicted mid-append (tear)`,
  ],
  ['torn lines seen (file + .rejected)', `${tornSeen} (limit: one per kill)`],
  ['torn lines set aside by compaction', String(rejectedLines())],
  ['compactions acknowledged', String(count('compact', (o) => o.outcome?.t === 'ack'))],
  ['invariant checks passed', `${checksPassed} of ${checksRun}`],
  [
    'final file',
    `${(size / 2 ** 20).toFixed(1)} MiB, ${final.items.length} active items, ${final.skipped.length} skipped lines, maxId ${final.maxId}`,
  ],
  ['torn lines still in the file at the end', String(lastBadLines)],
  ['write after the run', finalAdd],
  [
    'other files left in the data dir',
    leftovers.length ? `${leftovers.length} (${leftovers.slice(0, 3).join(', ')}${leftovers.length > 3 ? ', …' : ''})` : 'none',
  ],
  ['result', ok ? 'all invariants held ✓' : `FAILED: ${violations[0]}`],
];
for (const [k, v] of summary) console.log(`| ${k} | ${v} |`);

if (!ok) {
  console.error(`\n${violations.length} violation(s); first: ${violations[0]}`);
  for (const v of violations.slice(1, 10)) console.error(`  also: ${v}`);
  console.error(`data, journals and worker logs kept in ${dir} (seed ${SEED})`);
  process.exitCode = 1;
} else if (KEEP) {
  console.error(`data kept in ${dir}`);
} else {
  rmSync(dir, { recursive: true, force: true });
}
