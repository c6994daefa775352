/**
 * The entry of dist/cli-args.js: `aish` with arguments, parsed by commander (program.ts). Bundled
 * apart from plain `aish` (dist/cli.js, ./main.ts): each command's lazy `import()` is a split point,
 * and here they cut only this bundle's files.
 */
import { guardOutput } from '../../util/output-guard';
import { main } from './program';

// Before anything is written: every byte to stdout and stderr passes the one output boundary.
guardOutput();
process.exitCode = await main(process.argv.slice(2));
