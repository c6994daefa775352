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
  import(pathToFileURL(entry).href);
}
