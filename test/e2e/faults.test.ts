/**
 * The fault matrix: every way a model call can fail, in every front end.
 *
 * For each fault, in the plain line mode, in `-p`, in the Ink REPL (PTY) and in-process on the
 * real Broker: one clear line (`aish: …` / `✗ …`), no stack trace, the partial answer kept where
 * one arrived, the same process answering the next prompt, and no unhandled rejection anywhere.
 * The aish children run with NODE_OPTIONS=--unhandled-rejections=strict --trace-uncaught, so a
 * stray rejection would crash them loudly; a canary run proves that setting reaches them and that
 * the detector below sees it.
 *
 * Presets: `quick` (timeoutMs 1000) is used for the two hangs only. Everything else uses presets
 * with a long timeoutMs (15 s), above any retry wait, so each fault is reported as itself and never
 * as a timeout. (That retry waits do not count against the no-answer timer, however short, is a
 * unit test in test/broker/broker.test.ts.)
 *
 * DNS: `aish-fault.invalid` (RFC 6761: never resolves) normally fails with ENOTFOUND within
 * milliseconds. Where the lookup does not fail fast (no resolver reachable: it would hang for
 * seconds per attempt), or with AISH_TEST_DNS_SHIM=1, the children get a `--require` preload that
 * makes `dns.lookup` of `*.invalid` fail with the same getaddrinfo ENOTFOUND error, so the same
 * path through undici, the SDK and toBrokerError runs. The first test records which path ran.
 */
import { lookup } from 'node:dns';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { Broker } from '../../src/broker/broker';
import { BrokerError } from '../../src/broker/errors';
import type { ResolvedPreset } from '../../src/broker/presets';
import { startInteractive } from '../helpers/interactive';
import { lastUserText, startFakeOpenAI, type FakeOpenAI, type Reply } from '../helpers/openai-server';
import { closedPort } from '../helpers/ports';
import { spawnAish, stripAnsi, type PtySession } from '../helpers/pty';
import { runAish } from '../helpers/run-cli';

const KEY = 'sk-fault-key-0123456789';
/** timeoutMs of the `quick` preset, used for the hangs: short, yet well above the event-loop stalls
 *  (a few hundred ms) this worker can have while the other cases run beside it. */
const QUICK_MS = 1000; // "1 s" in the messages
const DNS_HOST = 'aish-fault.invalid';

/** Markdown of 2 MiB and more: 100-line paragraphs of space-free 63-character lines, then an end mark. */
const BIG_END = 'END-OF-THE-OVERSIZED-ANSWER';
const bigLine = (i: number) => `row-${String(i).padStart(5, '0')}-` + 'abcdefghijklmnopqrstuvwxyz'.repeat(3).slice(0, 53);
const BIG_LINES = Math.ceil((2 * 1024 * 1024) / 64); // 64 bytes a line with its newline: 2 MiB without the blank lines
const BIG = Array.from({ length: BIG_LINES }, (_, i) => bigLine(i) + '\n' + (i % 100 === 99 ? '\n' : '')).join('') + BIG_END;

type PresetName = 'main' | 'quick' | 'unknown' | 'refused' | 'dns';

interface Fault {
  id: string;
  preset: PresetName;
  /** What the fake server sends for this fault's prompt (none: the call never reaches it). */
  reply?: Reply;
  /** The one line, without its `aish: ` / `✗ ` prefix; undefined = no line (the oversized answer). */
  line?: RegExp;
  /** Answer text that arrives before the failure and must be shown and kept. */
  partial?: string;
  /** Requests the server must see for one prompt (the SDK's retries included). */
  attempts?: number;
  /**
   * The line when none of the partial answer reached aish before its timer fired: on a busy machine
   * the 1 s can pass before the first chunk arrives, and then saying there was no answer (or that it
   * stalled, with nothing kept) is right. That the partial is kept when it does arrive in time is
   * checked on a fake clock in test/broker/broker.test.ts; here aish must only say what happened.
   */
  late?: RegExp;
}

/** What one run of a fault must show: its line and partial answer, or the late line and none. */
function outcome(f: Fault, partialShown: boolean): { line?: RegExp; partial?: string; late: boolean } {
  if (f.late && f.partial && !partialShown) return { line: f.late, late: true };
  return { line: f.line, partial: f.partial, late: false };
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let fake: FakeOpenAI;
let root: string;
let cfg: string;
let refusedUrl: string;
let dnsUrl: string;
let dnsNote: string;
let childEnv: Record<string, string>;
let FAULTS: Fault[];

/** Unhandled rejections, uncaught exceptions and stack traces in a child's output. */
function leaks(text: string): string[] {
  return [/Unhandled/, /UnhandledPromiseRejection/, /ERR_UNHANDLED_REJECTION/, /Thrown at:/, / {4}at /]
    .filter((re) => re.test(text))
    .map(String);
}

/** Does `host` fail to resolve, quickly and with the error a missing host gives? */
function dnsFailsFast(host: string): Promise<{ ok: boolean; detail: string }> {
  const t = performance.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, detail: 'no result within 1 s' }), 1000);
    lookup(host, (err) => {
      clearTimeout(timer);
      const code = err?.code;
      const ms = Math.round(performance.now() - t);
      resolve({ ok: code === 'ENOTFOUND' || code === 'EAI_AGAIN', detail: `${code ?? 'resolved!'} in ${ms} ms` });
    });
  });
}

/** Makes dns.lookup of *.invalid fail at once the way getaddrinfo does (a preload for the children). */
const DNS_SHIM = `
const dns = require('node:dns');
const real = dns.lookup;
dns.lookup = function (host, opts, cb) {
  if (typeof opts === 'function') cb = opts;
  if (typeof host === 'string' && /\\.invalid$/i.test(host)) {
    const e = Object.assign(new Error('getaddrinfo ENOTFOUND ' + host), { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host });
    process.nextTick(cb, e);
    return {};
  }
  return real.apply(this, arguments);
};
`;

function newHome(name: string): string {
  const home = join(root, name);
  mkdirSync(home, { recursive: true });
  return home;
}

/** Assistant answers in the home's session logs. */
function loggedAnswers(home: string): string[] {
  const dir = join(home, '.local', 'share', 'aish', 'sessions');
  return readdirSync(dir).flatMap((f) =>
    readFileSync(join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { role?: string; content?: string | null })
      .filter((t) => t.role === 'assistant' && typeof t.content === 'string')
      .map((t) => t.content as string),
  );
}

const attemptsOf = (prompt: string) => fake.requests.filter((r) => lastUserText(r) === prompt);

/**
 * The requests the server saw for one mode's fault prompt: the broker's retries for 429 and 5xx,
 * one for the rest. A hang is ended by aish's own timer and never retried; on a loaded machine that
 * timer can fire before the server has even read the request, hence "at most one" for it. (That a
 * retry waits as long as retry-after asks is checked on a fake clock in test/broker/broker.test.ts.)
 */
function expectAttempts(expect: ExpectStatic, mode: string, f: Fault, late = false): void {
  if (f.attempts === undefined) return;
  const n = attemptsOf(`${mode}:fault:${f.id}`).length;
  if (f.id === 'hang-headers' || late) expect(n, `${mode} ${f.id} attempts`).toBeLessThanOrEqual(f.attempts);
  else expect(n, `${mode} ${f.id} attempts`).toBe(f.attempts);
}

const MODES = ['plain', 'oneshot', 'pty', 'broker'] as const;
/** Faults whose every check passed, per mode; the last test requires all of them in every mode. */
const checked: Record<(typeof MODES)[number], string[]> = { plain: [], oneshot: [], pty: [], broker: [] };
/** Runs where a fault's timer fired before its partial answer arrived (`Fault.late`), for the record. */
const lateRuns: string[] = [];

/** The REPL's input line with an empty editor (prompt, then the block cursor); DIM before it = busy. */
const PROMPT = '\x1b[1m\x1b[36m› \x1b[39m\x1b[22m\x1b[7m';
const DIM = '\x1b[2m';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aish-faults-'));
  fake = await startFakeOpenAI();
  const url = fake.url;
  const U = esc(url);
  refusedUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  dnsUrl = `http://${DNS_HOST}/v1`;

  childEnv = { OPENAI_API_KEY: KEY, NODE_OPTIONS: '--unhandled-rejections=strict --trace-uncaught' };
  const probe = await dnsFailsFast(DNS_HOST);
  if (!probe.ok || process.env.AISH_TEST_DNS_SHIM === '1') {
    const shim = join(root, 'dns-shim.cjs');
    writeFileSync(shim, DNS_SHIM);
    childEnv.NODE_OPTIONS += ` --require ${shim}`;
    createRequire(import.meta.url)(shim); // the in-process Broker too
    dnsNote = `shimmed (${probe.detail})`;
  } else dnsNote = `real resolver (${probe.detail})`;

  cfg = join(root, 'config.ts');
  writeFileSync(
    cfg,
    `export default {
  defaultModel: 'main',
  models: {
    main: { model: 'fault-model', baseURL: '${url}', timeoutMs: 15000 },
    quick: { model: 'fault-model', baseURL: '${url}', timeoutMs: ${QUICK_MS} },
    unknown: { model: 'no-such-model', baseURL: '${url}', timeoutMs: 15000 },
    refused: { model: 'fault-model', baseURL: '${refusedUrl}', timeoutMs: 15000 },
    dns: { model: 'fault-model', baseURL: '${dnsUrl}', timeoutMs: 15000 },
  },
};\n`,
  );

  FAULTS = [
    {
      id: 'refused',
      preset: 'refused',
      line: new RegExp(`^cannot reach ${esc(refusedUrl)} \\(connection refused\\) — is the server running, and is the base URL right\\?$`),
    },
    {
      id: 'dns',
      preset: 'dns',
      line: new RegExp(`^cannot reach ${esc(dnsUrl)} \\(host not found\\) — is the server running, and is the base URL right\\?$`),
    },
    {
      id: '401',
      preset: 'main',
      reply: { status: 401, error: { message: `Incorrect API key provided: ${KEY}` } },
      line: new RegExp(`^${U} refused the API key \\(401\\): Incorrect API key provided: \\[key\\] — check \\$OPENAI_API_KEY$`),
      attempts: 1,
    },
    {
      id: '403',
      preset: 'main',
      reply: { status: 403 },
      line: new RegExp(`^${U} denied access \\(403\\): Permission denied\\. — check that \\S+ may use model "\\S+"$`),
      attempts: 1,
    },
    {
      id: '404',
      preset: 'unknown',
      reply: { status: 404, error: { message: "The model 'no-such-model' does not exist" } },
      line: new RegExp(
        `^model "no-such-model" not found at ${U} \\(404\\).* — check models\\.unknown\\.model, or pick another with :model$`,
      ),
      attempts: 1,
    },
    {
      id: '429',
      preset: 'main',
      reply: { status: 429, headers: { 'retry-after': '1' } },
      line: new RegExp(`^rate limited by ${U} \\(429\\) after retries: Rate limit reached\\. — wait a moment and try again$`),
      attempts: 3,
    },
    { id: '500', preset: 'main', reply: { status: 500 }, line: new RegExp(`^server error 500 from ${U}: .* — try again$`), attempts: 3 },
    { id: '503', preset: 'main', reply: { status: 503 }, line: new RegExp(`^server error 503 from ${U}: .* — try again$`), attempts: 3 },
    // Another server's JSON shape and a proxy's HTML page: the server's own words are shown.
    {
      id: '500-json',
      preset: 'main',
      reply: { status: 500, body: '{"error":"SyntaxError","message":"Unexpected token } in JSON at position 12"}' },
      line: new RegExp(`^server error 500 from ${U}: SyntaxError: Unexpected token \\} in JSON at position 12 — try again$`),
      attempts: 3,
    },
    {
      id: '500-text',
      preset: 'main',
      reply: {
        status: 500,
        contentType: 'text/html',
        body: '<html><body><h1>Internal Server Error</h1><p>model worker crashed</p></body></html>',
      },
      line: new RegExp(`^server error 500 from ${U}: Internal Server Error model worker crashed — try again$`),
      attempts: 3,
    },
    {
      id: 'hang-headers',
      preset: 'quick',
      reply: { hang: 'before-headers' },
      line: new RegExp(`^no answer from ${U} within 1 s — check the server, or raise models\\.quick\\.timeoutMs$`),
      attempts: 1,
    },
    {
      id: 'hang-mid',
      preset: 'quick',
      reply: { hang: 'mid-stream', text: 'words before the stall' },
      line: new RegExp(`^the answer from ${U} stalled for 1 s; partial answer kept — try again, or raise models\\.quick\\.timeoutMs$`),
      partial: 'words before the stall',
      attempts: 1,
      late: new RegExp(
        `^(no answer from ${U} within 1 s|the answer from ${U} stalled for 1 s) — (check the server|try again), or raise models\\.quick\\.timeoutMs$`,
      ),
    },
    {
      id: 'cut',
      preset: 'main',
      reply: { cut: 'words before the cut' },
      line: new RegExp(`^the connection to ${U} dropped mid-answer; partial answer kept — try again$`),
      partial: 'words before the cut',
      attempts: 1,
    },
    {
      id: 'invalid-json',
      preset: 'main',
      reply: { invalidChunk: '{nope', before: 'words before the bad chunk' },
      line: new RegExp(`^unreadable data from ${U} \\(.+\\); partial answer kept$`),
      partial: 'words before the bad chunk',
      attempts: 1,
    },
    { id: 'oversized', preset: 'main', reply: { text: BIG, chunkSize: 4096 }, attempts: 1 },
  ];

  // Replies are chosen by the prompt, so the modes can run at the same time on one server:
  // "<mode>:fault:<id>" gets the fault, "<mode>:after:<id>" a normal answer.
  fake.setDefault((req) => {
    const m = /^(\w+):(fault|after):([\w-]+)$/.exec(lastUserText(req));
    if (m?.[2] === 'fault') return FAULTS.find((f) => f.id === m[3])?.reply ?? { text: `no such fault ${m[3]}` };
    if (m?.[2] === 'after') return { text: `recovered after ${m[3]}` };
    return { text: `echo: ${lastUserText(req)}` };
  });
});

afterAll(async () => {
  await fake?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('fault matrix', () => {
  it.concurrent('the leak detector sees an unhandled rejection in a child (NODE_OPTIONS reaches it)', async ({ expect }) => {
    const canary = join(root, 'canary.cjs');
    writeFileSync(canary, "Promise.reject(new Error('canary rejection'));\n");
    const home = newHome('canary');
    const r = await runAish(['--version'], { home, env: { ...childEnv, NODE_OPTIONS: `${childEnv.NODE_OPTIONS} --require ${canary}` } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('canary rejection');
    expect(leaks(r.stderr)).toContain(String(/ {4}at /));
    // and a non-Error rejection is named as such
    writeFileSync(canary, "Promise.reject('canary string');\n");
    const s = await runAish(['--version'], { home, env: { ...childEnv, NODE_OPTIONS: `${childEnv.NODE_OPTIONS} --require ${canary}` } });
    expect(s.code).not.toBe(0);
    expect(leaks(s.stderr)).toEqual(expect.arrayContaining([String(/ERR_UNHANDLED_REJECTION/), String(/UnhandledPromiseRejection/)]));
  });

  it.concurrent('plain line mode: one `aish:` line per fault, and the same process answers right after each', async ({ expect }) => {
    const home = newHome('plain');
    const a = startInteractive(['--config', cfg], { home, env: childEnv });
    const keptPartials: string[] = [];
    try {
      for (const f of FAULTS) {
        const out0 = a.stdout().length;
        const err0 = a.stderr().length;
        if (f.preset !== 'main') a.send(`:model ${f.preset}`);
        a.send(`plain:fault:${f.id}`);
        if (f.preset !== 'main') a.send(':model main');
        a.send(`plain:after:${f.id}`);
        await a.waitFor(`recovered after ${f.id}\n`, { from: out0, timeoutMs: 20_000 });
        const errs = a.stderr().slice(err0).split('\n').filter(Boolean);
        const out = a.stdout().slice(out0);
        const o = outcome(f, !!f.partial && out.includes(f.partial));
        if (o.late) lateRuns.push(`plain ${f.id}`);
        if (o.partial) keptPartials.push(o.partial);
        if (o.line) {
          expect(errs, f.id).toHaveLength(1);
          expect(errs[0], f.id).toMatch(/^aish: /);
          expect(errs[0]!.slice('aish: '.length), f.id).toMatch(o.line);
          expect(errs[0], f.id).not.toContain(KEY);
        } else {
          // The 2 MiB answer pushes older turns out of the window: said once, on stderr.
          expect(
            errs.filter((e) => !/^aish: warning: context full: \d+ oldest turns? left the window/.test(e)),
            f.id,
          ).toEqual([]);
        }
        if (o.partial) expect(out, f.id).toContain(`${o.partial}\n`);
        if (f.id === 'oversized') expect(out.includes(`${BIG}\n`), 'the whole oversized answer on stdout').toBe(true);
        expectAttempts(expect, 'plain', f, o.late);
        checked.plain.push(f.id);
      }
      expect(await a.end()).toBe(1); // every fault but the oversized answer failed a call
      expect(leaks(a.stderr())).toEqual([]);
      expect(
        a
          .stderr()
          .trim()
          .split('\n')
          .filter((l) => !l.includes('context full:')),
      ).toHaveLength(FAULTS.filter((f) => f.line).length);
      // kept: the partial answers and the whole oversized answer are in the session log
      const logged = loggedAnswers(home);
      expect(logged).toContain(BIG);
      for (const partial of keptPartials) expect(logged).toContain(`${partial}\n\n[answer broken off]`);
    } finally {
      await a.end(1000);
    }
  });

  it.concurrent('-p: each fault exits 1 with one line; the oversized answer exits 0 with all of it on stdout', async ({ expect }) => {
    const results = await Promise.all(
      FAULTS.map(async (f) => {
        const home = newHome(`oneshot-${f.id}`);
        const r = await runAish(['--config', cfg, '-m', f.preset, '-p', `oneshot:fault:${f.id}`], {
          home,
          env: childEnv,
          timeoutMs: 30_000,
        });
        return { f, r, home };
      }),
    );
    for (const { f, r, home } of results) {
      expect(leaks(r.stderr), f.id).toEqual([]);
      const o = outcome(f, !!f.partial && r.stdout.includes(f.partial));
      if (o.late) lateRuns.push(`oneshot ${f.id}`);
      if (o.line) {
        expect(r.code, f.id).toBe(1);
        const lines = r.stderr.split('\n').filter(Boolean);
        expect(lines, f.id).toHaveLength(1);
        expect(lines[0], f.id).toMatch(/^aish: /);
        expect(lines[0]!.slice('aish: '.length), f.id).toMatch(o.line);
        expect(r.stdout, f.id).toBe(o.partial ? `${o.partial}\n` : '');
      } else {
        expect(r.stderr, f.id).toBe('');
        expect(r.code, f.id).toBe(0);
        expect(r.stdout === `${BIG}\n`, 'stdout is exactly the oversized answer').toBe(true);
        expect(loggedAnswers(home)).toEqual([BIG]);
      }
      expectAttempts(expect, 'oneshot', f, o.late);
      checked.oneshot.push(f.id);
    }
  });

  it.concurrent('Ink REPL in a PTY: one ✗ line per fault, and the prompt answers right after', async ({ expect }) => {
    const home = newHome('pty');
    // Wide enough that no error line wraps.
    const s: PtySession = spawnAish(['--config', cfg], { home, env: childEnv, cols: 250, rows: 30 });
    /** Poll the raw output (PtySession.waitFor strips the whole screen per chunk: too slow for MBs). */
    const until = async (what: string, cond: () => boolean, timeoutMs = 20_000) => {
      const end = Date.now() + timeoutMs;
      while (!cond()) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}; screen tail:\n${stripAnsi(s.raw().slice(-1500))}`);
        await sleep(40);
      }
    };
    const seen = (what: string, from: number) => s.raw().indexOf(what, from) >= 0;
    // Enter while an answer runs is refused ("busy"), and Enters that pile up while the UI is busy
    // arrive as one pasted chunk: so type only once the last input line drawn is not dimmed.
    const idle = (from: number) => {
      const raw = s.raw();
      const i = raw.lastIndexOf(PROMPT);
      return i >= from && raw.slice(Math.max(0, i - DIM.length), i) !== DIM;
    };
    /** Type a line once the prompt is idle, then wait for `what` and for the prompt to be idle again. */
    const submit = async (text: string, what: string, timeoutMs?: number) => {
      await until('an idle prompt', () => idle(0));
      const mark = s.raw().length;
      s.write(`${text}\r`);
      await until(what, () => seen(what, mark), timeoutMs);
      const at = s.raw().indexOf(what, mark);
      await until(`an idle prompt after ${what}`, () => idle(at), timeoutMs);
    };
    try {
      await until('the status line', () => seen('main (fault-model)', 0));
      for (const f of FAULTS) {
        const mark = s.raw().length;
        if (f.preset !== 'main') await submit(`:model ${f.preset}`, `model: ${f.preset} (`);
        await submit(`pty:fault:${f.id}`, f.line ? '✗' : BIG_END, 40_000); // 2 MiB through Ink takes seconds
        if (f.preset !== 'main') await submit(':model main', 'model: main (');
        await submit(`pty:after:${f.id}`, `recovered after ${f.id}`);
        const screen = stripAnsi(s.raw().slice(mark));
        const marks = screen.split(/\r?\n/).filter((l) => l.includes('✗'));
        const o = outcome(f, !!f.partial && screen.includes(f.partial));
        if (o.late) lateRuns.push(`pty ${f.id}`);
        if (o.line) {
          expect(marks, f.id).toHaveLength(1);
          expect(marks[0]!.trimEnd(), f.id).toMatch(/^✗ /);
          expect(marks[0]!.trimEnd().slice(2), f.id).toMatch(o.line);
        } else {
          expect(marks, f.id).toEqual([]);
          for (const l of [bigLine(0), bigLine(BIG_LINES >> 1), bigLine(BIG_LINES - 1), BIG_END])
            expect(screen, `${f.id} shows ${l}`).toContain(l);
        }
        if (o.partial) expect(screen, f.id).toContain(o.partial);
        expectAttempts(expect, 'pty', f, o.late);
        checked.pty.push(f.id);
      }
      s.write('\x04');
      expect(await s.exitCode()).toBe(0);
      expect(leaks(s.text())).toEqual([]);
      expect(loggedAnswers(home)).toContain(BIG);
    } finally {
      s.kill();
    }
  });

  it.concurrent(
    'in process: the real Broker through every fault, with no unhandled rejection or uncaught exception',
    async ({ expect }) => {
      const caught: unknown[] = [];
      const onRejection = (reason: unknown) => void caught.push(reason);
      const onException = (err: unknown) => void caught.push(err);
      process.on('unhandledRejection', onRejection);
      process.on('uncaughtException', onException);
      try {
        const preset = (f: Fault): ResolvedPreset => ({
          name: f.preset,
          model: f.preset === 'unknown' ? 'no-such-model' : 'fault-model',
          baseURL: f.preset === 'refused' ? refusedUrl : f.preset === 'dns' ? dnsUrl : fake.url,
          apiKey: KEY,
          keySource: '$OPENAI_API_KEY',
          timeoutMs: f.preset === 'quick' ? QUICK_MS : 15_000,
        });
        // One after the other: the fake server shares this event loop, and a dozen SDK clients
        // starting at once (plus 2 MB of SSE) would hold it long enough to trip the 1 s preset.
        await new Broker(preset(FAULTS.find((f) => f.preset === 'main')!)).stream([{ role: 'user', content: 'broker:warm-up' }]);
        const outcomes = [];
        for (const f of FAULTS) {
          const broker = new Broker(preset(f));
          const got = await broker.stream([{ role: 'user', content: `broker:fault:${f.id}` }]).then(
            (r) => ({ ok: r, err: undefined }),
            (e: unknown) => ({ ok: undefined, err: e }),
          );
          // The same Broker (the same SDK client) answers the next call.
          const next =
            f.preset === 'refused' || f.preset === 'dns'
              ? undefined
              : await broker.stream([{ role: 'user', content: `broker:after:${f.id}` }]);
          outcomes.push({ f, ...got, next });
        }
        for (const { f, ok, err, next } of outcomes) {
          const o = outcome(f, err instanceof BrokerError && err.partial !== '');
          if (o.late) lateRuns.push(`broker ${f.id}`);
          if (o.line) {
            expect(err, f.id).toBeInstanceOf(BrokerError);
            expect((err as BrokerError).message, f.id).toMatch(o.line);
            expect((err as BrokerError).partial, f.id).toBe(o.partial ?? '');
          } else {
            expect(err, f.id).toBeUndefined();
            expect(ok?.content === BIG, 'the whole oversized answer').toBe(true);
            expect(ok?.finishReason).toBe('stop');
          }
          if (next) expect(next.content, f.id).toBe(`recovered after ${f.id}`);
          expectAttempts(expect, 'broker', f, o.late);
          checked.broker.push(f.id);
        }
        // Late failures (sockets torn down after an abort) get a moment to surface.
        await sleep(300);
      } finally {
        process.off('unhandledRejection', onRejection);
        process.off('uncaughtException', onException);
      }
      expect(caught).toEqual([]);
    },
  );

  // Runs after the concurrent tests above: a mode that stopped early, skipped a fault or checked one
  // twice shows up here, by mode and fault.
  it('every fault was checked, once, in every mode', async ({ expect, annotate }) => {
    await annotate(`DNS for ${DNS_HOST}: ${dnsNote}`);
    if (lateRuns.length > 0) await annotate(`timer fired before the partial answer arrived: ${lateRuns.join(', ')}`);
    const all = FAULTS.map((f) => f.id);
    expect(all.length).toBeGreaterThan(0);
    for (const mode of MODES) expect(checked[mode], mode).toEqual(all);
  });
});
