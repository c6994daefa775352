/**
 * Lazy loader for the bash grammar (tree-sitter, WebAssembly build). The safety gate parses shell
 * commands with it instead of matching substrings. Loading costs ~20 ms, so it happens once, on
 * first use, and the promise is memoised. Also here: reading a word of the tree as the shell would
 * after quote removal.
 *
 * Works from source (vitest) and from the esbuild bundle in dist/: `web-tree-sitter` is kept
 * external by scripts/build.mjs and its .wasm is located through Node's resolver from this module's
 * URL. The grammar's .wasm is copied into dist/ by the build (the installed package has no
 * tree-sitter-bash); from source it comes from node_modules.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node, Tree } from 'web-tree-sitter';

export type SyntaxNode = Node;

/** A shell word after quote removal. */
export interface Arg {
  /** The value; for a dynamic word, its source text. */
  text: string;
  /** Contains an expansion that cannot be resolved statically ($X, ${X}, $(…), <(…)). */
  dynamic: boolean;
  /** Contains an unquoted *, ? or [. */
  glob: boolean;
  node?: SyntaxNode;
}

export interface ShellParser {
  /** Parses a bash script. Returns null only if tree-sitter gave up (treat as unparseable). */
  parse(source: string): Tree | null;
}

let loading: Promise<ShellParser> | undefined;
let loaded: ShellParser | undefined;

/**
 * Directory of an installed package. package.json is tried first; packages whose `exports` map
 * hides it (web-tree-sitter) are found from their main entry by walking up to the package.json
 * that names them.
 */
function packageDir(name: string): string {
  const req = createRequire(import.meta.url);
  try {
    return dirname(req.resolve(`${name}/package.json`));
  } catch {
    let dir = dirname(req.resolve(name));
    for (;;) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (parsed.name === name) return dir;
      }
      const up = dirname(dir);
      if (up === dir) throw new Error(`cannot locate the directory of package ${name}`);
      dir = up;
    }
  }
}

/** The grammar beside the bundle (dist/ or dist/chunks/ → dist/), else tree-sitter-bash's own. */
function grammarPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = [here, dirname(here)].map((d) => join(d, 'tree-sitter-bash.wasm')).find((f) => existsSync(f));
  return bundled ?? join(packageDir('tree-sitter-bash'), 'tree-sitter-bash.wasm');
}

async function load(): Promise<ShellParser> {
  const runtimeWasm = join(packageDir('web-tree-sitter'), 'tree-sitter.wasm');
  const grammarWasm = grammarPath();
  // Imported here, not at the top, so starting aish never pays for it.
  const { Parser, Language } = await import('web-tree-sitter');
  await Parser.init({ locateFile: () => runtimeWasm });
  const language = await Language.load(new Uint8Array(readFileSync(grammarWasm)));
  const parser = new Parser();
  parser.setLanguage(language);
  const shell: ShellParser = { parse: (source) => parser.parse(source) };
  loaded = shell;
  return shell;
}

/** Initialises the parser once; later calls return the same promise. A failed load may be retried. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The parser if loadShellParser() has finished, else undefined. */
export function getShellParser(): ShellParser | undefined {
  return loaded;
}

// ---- words: quote removal, so `"rm"`, `\rm`, `r\m` and `$'rm'` all read `rm` ----

const ANSI_C: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };
function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|[0-7]{1,3}|.)/gs, (_m, e: string) => {
    if (/^[xu]./.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ANSI_C[e] ?? e;
  });
}

/**
 * Unquoted text that the shell expands into other words: globs (`*`, `?`, `[…]`) and brace
 * expansion (`r{m,}` runs `rm`). Quoted parts are replaced by NUL before the test.
 */
const EXPANDS = /(^|[^\\])(\\\\)*([*?]|\[[^\]]*\]|\{[^{}]*(,|\.\.)[^{}]*\})/;

/** A word with quoting removed; anything whose value depends on run-time state is `dynamic`. */
export function resolveArg(node: SyntaxNode): Arg {
  const t = node.text;
  const value = (text: string, glob = false): Arg => ({ text, dynamic: false, glob, node });
  switch (node.type) {
    case 'word':
      return value(t.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1'), EXPANDS.test(t));
    case 'number':
      return value(t);
    case 'raw_string':
      return value(t.slice(1, -1));
    case 'ansi_c_string':
      return value(decodeAnsiC(t.slice(2, -1)));
    case 'string':
      if (node.namedChildren.every((c) => c?.type === 'string_content'))
        return value(t.slice(1, -1).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c)));
      break;
    case 'command_name':
    case 'concatenation': {
      const parts = node.namedChildren.filter((c) => c !== null).map(resolveArg);
      if (node.type === 'command_name' && parts.length === 1) return parts[0]!;
      const dynamic = parts.some((p) => p.dynamic);
      const unquoted = parts.map((p) => (p.node?.type === 'word' ? p.node.text : '\0')).join('');
      return { text: dynamic ? t : parts.map((p) => p.text).join(''), dynamic, glob: EXPANDS.test(unquoted), node };
    }
  }
  return { text: t, dynamic: true, glob: false, node };
}

/** Program name of a command word: `/bin/rm`, `./RM` → `rm`; null when not static. */
export function programName(arg: Arg): string | null {
  if (arg.dynamic || arg.glob) return null;
  return (arg.text.slice(arg.text.lastIndexOf('/') + 1) || arg.text).toLowerCase();
}
