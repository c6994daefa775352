#!/usr/bin/env node
// Thin launcher: the real program is the esbuild bundle built by `npm install` (scripts/build.mjs).
// CommonJS on purpose: Node starts it without its ES module loader, which `--version` would pay for.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered without loading the bundle: the version is all that was asked for.
  process.stdout.write(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version + '\n');
} else {
  const entry = join(__dirname, '..', 'dist', 'cli.js');
  if (!existsSync(entry)) {
    process.stderr.write('aish: not built yet — run `npm install` (or `npm run build`) in the aish folder\n');
    process.exit(2);
  }
  // `aish memory add KIND TEXT…`, the command scripts run most, skips the ES module loader and the
  // full command line (src/frontends/cli/quick-add.ts); any other form goes to the full CLI.
  if (args[0] === 'memory' && args[1] === 'add') {
    const quick = join(__dirname, '..', 'dist', 'memory-add.cjs');
    if (existsSync(quick)) {
      const q = require(quick);
      if (q.quickAddArgs(args.slice(2))) {
        q.runQuickAdd(args.slice(2)).then((code) => (process.exitCode = code));
        return;
      }
    }
  }
  // Plain `aish` on a terminal is the REPL: its prompt shows (and echoes keys) before the bundle loads.
  // With the last start's settled frame cached, that whole frame shows at once (frame-cache.cjs).
  // That start loads dist/repl.js, the REPL without the command-line parser (src/frontends/cli/repl-entry.ts).
  const repl = join(__dirname, '..', 'dist', 'repl.js');
  if (args.length === 0 && process.stdin.isTTY && process.stdout.isTTY && existsSync(repl)) {
    globalThis.__aishEarlyPrompt = require('./early-prompt.cjs').start(require('./frame-cache.cjs').lookup(entry));
    import(pathToFileURL(repl).href);
  } else {
    import(pathToFileURL(entry).href);
  }
}
