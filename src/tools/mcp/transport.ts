/**
 * Stdio transport for MCP servers. Unlike the SDK's StdioClientTransport, the server is
 * spawned detached — in its own session and process group — because a Ctrl-C in the terminal, or in
 * a `!cmd` child that shares aish's group, would otherwise SIGINT every MCP server too. Being a group
 * leader also lets close() kill whatever the server itself spawned (npx → node, uvx → python).
 * This module imports the SDK's JSON-RPC parser, so load it lazily (manager.ts does).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, createWriteStream, mkdirSync, openSync, renameSync, statSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { idOfLong, LineReader, MAX_LINE_BYTES } from './lines';

/** The variables the SDK's own transport passes on (sudo's list); everything else stays private. */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;
const KILL_GRACE_MS = 2000;
/** Past this size the log is rotated to `<log>.1` at spawn, so a chatty server cannot fill the disk. */
const LOG_ROTATE_BYTES = 1 << 20;
/** What one run of a server may write to its log: past it, stderr is still read, not kept. */
const LOG_RUN_BYTES = 1 << 20;

export interface StdioServerSpec {
  command: string;
  args?: string[];
  /** Added to the inherited whitelist. */
  env?: Record<string, string>;
  /** Absolute; undefined → aish's cwd. */
  cwd?: string;
  /** The server's stderr is appended here (0600; the directory is created 0700). */
  logPath: string;
}

function serverEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const v = process.env[key];
    // Exported bash functions ("() { …") are skipped, as the SDK does.
    if (v !== undefined && !v.startsWith('()')) env[key] = v;
  }
  return { ...env, ...extra };
}

/** Groups still alive, so an aish exit that skipped close() does not orphan servers. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const g of liveGroups) signalGroup(g, 'SIGTERM');
  });
}

function signalGroup(pgid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, sig);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

function openLog(path: string): number | undefined {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      if (statSync(path).size > LOG_ROTATE_BYTES) renameSync(path, `${path}.1`);
    } catch {
      /* no log yet */
    }
    const fd = openSync(path, 'a', 0o600);
    chmodSync(path, 0o600); // mode only applies on creation
    return fd;
  } catch {
    return undefined; // an unwritable log must not stop the server
  }
}

export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** Set when spawn itself failed (ENOENT, EACCES, bad cwd). */
  spawnError?: NodeJS.ErrnoException;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;

  private child?: ChildProcessWithoutNullStreams;
  private readonly buffer = new LineReader();
  private log?: WriteStream;
  private closedFlag = false;
  private readonly closedPromise: Promise<void>;
  private markClosed!: () => void;
  private closing?: Promise<void>;

  constructor(private readonly spec: StdioServerSpec) {
    this.closedPromise = new Promise((resolve) => (this.markClosed = resolve));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Resolves when the connection is over (process gone or never started), or after `ms`. */
  waitClosed(ms: number): Promise<void> {
    return Promise.race([this.closedPromise, new Promise<void>((r) => setTimeout(r, ms).unref())]);
  }

  start(): Promise<void> {
    if (this.child || this.closedFlag) return Promise.reject(new Error('transport already started'));
    const { command, args = [], env, cwd, logPath } = this.spec;
    const fd = openLog(logPath);
    if (fd !== undefined) {
      this.log = createWriteStream('', { fd });
      this.log.on('error', () => this.log?.destroy());
      this.log.write(`--- ${new Date().toISOString()} aish starts: ${[command, ...args].join(' ')}\n`);
    }
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(command, args, {
          detached: true, // own session + process group (setsid)
          stdio: ['pipe', 'pipe', 'pipe'],
          env: serverEnv(env),
          cwd,
          shell: false,
        });
      } catch (err) {
        // Synchronous refusals (e.g. a NUL byte in an argument).
        this.spawnError = err as NodeJS.ErrnoException;
        this.finish();
        reject(this.spawnError);
        return;
      }
      this.child = child;
      let spawned = false;
      child.on('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) trackGroup(child.pid);
        resolve();
      });
      child.on('error', (err: NodeJS.ErrnoException) => {
        if (!spawned) {
          this.spawnError = err;
          reject(err);
          this.onerror?.(err);
          this.finish(); // 'close' is not guaranteed after a failed spawn
        } else {
          this.onerror?.(err);
        }
      });
      child.on('close', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        this.finish();
      });
      child.stdin.on('error', (err) => this.onerror?.(err)); // EPIPE when the server died
      child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
      child.stdout.on('error', (err) => this.onerror?.(err));
      this.drainStderr(child);
    });
  }

  /**
   * Always read, so a chatty server never blocks on a full pipe; kept up to LOG_RUN_BYTES a run,
   * so a flood cannot fill the disk (the log waits for the disk, the server for the log).
   */
  private drainStderr(child: ChildProcessWithoutNullStreams): void {
    const log = this.log;
    if (!log) return void child.stderr.resume();
    let kept = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      if (kept >= LOG_RUN_BYTES || log.destroyed || log.writableEnded) return;
      const room = LOG_RUN_BYTES - kept;
      kept += chunk.length;
      const more = log.write(chunk.length <= room ? chunk : chunk.subarray(0, room));
      if (kept >= LOG_RUN_BYTES) log.write(`\n[aish] stderr over ${LOG_RUN_BYTES / 1024 / 1024} MB this run: the rest is not kept\n`);
      else if (!more) {
        child.stderr.pause();
        log.once('drain', () => child.stderr.resume());
      }
    });
  }

  private onData(chunk: Buffer): void {
    for (const ev of this.buffer.push(chunk)) {
      if ('tooLong' in ev) {
        this.tooLong(ev.tooLong.head, ev.tooLong.tail);
        continue;
      }
      if (!ev.line.trim()) continue;
      let msg: JSONRPCMessage;
      try {
        msg = deserializeMessage(ev.line);
      } catch (err) {
        // A stray non-JSON stdout line (a print() in the server): note it and carry on.
        this.log?.write(`[aish] ignored stdout line: ${(err as Error).message.split('\n')[0]}\n`);
        continue;
      }
      this.onmessage?.(msg);
    }
  }

  /** A line of aish's own in the server's log. */
  note(text: string): void {
    if (this.log && !this.log.destroyed && !this.log.writableEnded) this.log.write(`[aish] ${text}\n`);
  }

  /** An answer past the line limit fails its own call, with a line that says why; the server goes on. */
  private tooLong(head: string, tail: string): void {
    const mb = MAX_LINE_BYTES / 1024 / 1024;
    const id = idOfLong(head, tail);
    this.log?.write(`[aish] ignored a stdout line over ${mb} MB${id === undefined ? '' : ` (the answer to ${id})`}\n`);
    if (id === undefined) return;
    const message = `answer over ${mb} MB, the most aish reads — ask the tool for less`;
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message } });
  }

  private finish(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    const pid = this.child?.pid;
    // The leader is gone; the group entry is dropped once close() has swept it (or right away).
    if (pid !== undefined && !signalGroup(pid, 0)) liveGroups.delete(pid);
    const how = this.spawnError
      ? `spawn failed: ${this.spawnError.code ?? this.spawnError.message}`
      : `exited (${this.exitSignal ? `signal ${this.exitSignal}` : `code ${this.exitCode}`})`;
    if (this.log && !this.log.destroyed) this.log.end(`--- ${new Date().toISOString()} ${how}\n`);
    this.buffer.clear();
    this.markClosed();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closedFlag || this.closing || !stdin.writable) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()));
    });
  }

  /** Ends the server and everything in its group: stdin EOF, SIGTERM, SIGKILL after 2 s. Never throws. */
  close(): Promise<void> {
    this.closing ??= this.shutdown().catch(() => undefined);
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (!child || pgid === undefined) {
      this.finish();
      return;
    }
    try {
      child.stdin.end();
    } catch {
      /* already gone */
    }
    if (signalGroup(pgid, 'SIGTERM') && !(await groupGone(pgid, KILL_GRACE_MS))) {
      signalGroup(pgid, 'SIGKILL');
      await groupGone(pgid, 1000);
    }
    liveGroups.delete(pgid);
    await this.waitClosed(1000);
    child.stdout.destroy();
    child.stderr.destroy();
    this.finish(); // in case 'close' never came (a grandchild kept the pipes open)
  }
}

/** Polls until no process of the group is left (zombies count until Node reaps them). */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (signalGroup(pgid, 0)) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
