#!/usr/bin/env node
// Thin launcher: the real program is the esbuild bundle built by `npm install` (scripts/build.mjs).
// CommonJS on purpose: Node starts it without its ES module loader, which `--version` would pay for.
'use strict';
const { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, writeSync } = require('node:fs');
const { homedir } = require('node:os');
const { isAbsolute, join } = require('node:path');
const { pathToFileURL } = require('node:url');

/**
 * V8's compiled code for the bundle's chunks, kept between starts (Node 22.1+; a no-op on older
 * Node): compiling the REPL's chunks is a third of a cold start. Only in aish's own cache directory,
 * 0700 and ours, never a shared one: code read from there runs as you. Anything odd: no cache.
 */
function enableCompileCache() {
  const mod = require('node:module');
  if (typeof mod.enableCompileCache !== 'function' || process.env.NODE_COMPILE_CACHE) return;
  try {
    const xdg = process.env.XDG_CACHE_HOME;
    const base = join(xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'aish');
    const dir = join(base, 'compile-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [base, dir]) {
      const st = lstatSync(d);
      // A link or someone else's directory in its place: its files are not ours to run.
      if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) return;
    }
    if ((lstatSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
    mod.enableCompileCache(dir);
  } catch {
    // No cache: every start compiles, as without one.
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the bundle: the version is all that was asked for.
  const version = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version;
  try {
    writeSync(1, version + '\n');
  } catch (err) {
    // A non-blocking pipe: Node's stream waits for it. A full disk: one line, as the bundles say
    // it (frontends/cli/output.ts). A closed pipe (`| true`) is no error.
    if (err.code === 'EAGAIN') process.stdout.write(version + '\n');
    else if (err.code !== 'EPIPE') {
      process.stderr.write(`aish: cannot write to stdout (${err.message}) — the output is incomplete\n`);
      process.exitCode = 1;
    }
  }
} else {
  // Plain `aish` and `aish ARGS` are two bundles (scripts/build.mjs): the start with no arguments
  // never loads the command line's parser or its commands.
  const entry = join(__dirname, '..', 'dist', args.length > 0 ? 'cli-args.js' : 'cli.js');
  if (!existsSync(entry)) {
    process.stderr.write('aish: not built yet — run `npm install` (or `npm run build`) in the aish folder\n');
    process.exit(2);
  }
  enableCompileCache();
  import(pathToFileURL(entry).href);
}
