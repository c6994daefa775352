/** `aish memory import --from TOOL [PATH]` and `aish memory export --format agents-md [FILE]`: memory shared with other agents. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Setup } from '../../config/setup';
import { agentsMdSection, notYetInFile, placeSection } from '../../memory/porting/agents-md';
import { readToolFiles } from '../../memory/porting/read-tool';
import { defaultToolFiles, filesAt, isPortTool, PORT_TOOLS, type ToolEnv } from '../../memory/porting/tool-files';
import { projectIdentity } from '../../memory/project/project-identity';
import { writeFileAtomicSync } from '../../util/atomic-write';
import { AishError, UsageError } from '../../util/errors';
import { describeFsError } from '../../util/fs-safe';
import { expandHome, realPath } from '../../util/paths';
import { plural } from '../../util/time';
import { importReady } from './memory-transfer';
import { openStore } from './memory-store';
import { out, warn } from './output';

function toolEnv(): ToolEnv {
  const codexHome = process.env.CODEX_HOME;
  return { home: homedir(), ...(codexHome && { codexHome: resolve(expandHome(codexHome)) }) };
}

export async function memoryImportFrom(s: Setup, tool: string, path: string | undefined, opts: { dryRun?: boolean }): Promise<void> {
  if (!isPortTool(tool)) throw new UsageError(`unknown tool "${tool}" — use ${PORT_TOOLS.join(', ')}`);
  const cwd = process.cwd();
  const root = projectIdentity(cwd).root;
  const env = { ...toolEnv(), root };
  const named = path === undefined ? undefined : resolve(expandHome(path));
  if (named !== undefined && !existsSync(named))
    throw new UsageError(`${path} does not exist — name a ${tool} memory file or the directory holding it`);
  const files = named ? filesAt(tool, named, root, env) : defaultToolFiles(tool, root, cwd, env);
  const read = readToolFiles(tool, files, env);
  for (const n of read.notes) warn(n);
  // A dry run is the report of what an import would do: what it leaves out is part of it.
  if (opts.dryRun) for (const n of read.notes) out(`- ${n}`);
  if (read.files.length === 0) {
    const where = path ? `in ${path}` : `for this directory or in your home`;
    out(`no ${tool} memory files found ${where} — name one: aish memory import --from ${tool} PATH`);
    return;
  }
  await importReady(s, read.items, `${plural(read.files.length, 'file')} (${read.files.join(', ')})`, { ...opts, list: true });
}

export function memoryExportAgentsMd(s: Setup, file: string | undefined): void {
  const scopes = new Set(projectIdentity(process.cwd()).scopes);
  // AGENTS.md is meant to be committed: only this project's items, never the private ones.
  const items = openStore(s)
    .items()
    .filter((it) => it.scope !== undefined && scopes.has(it.scope) && !it.private);
  if (!file) {
    process.stdout.write(agentsMdSection(items) + '\n');
    return;
  }
  const target = resolve(file);
  let existing = '';
  let mode = 0o644;
  try {
    existing = readFileSync(target, 'utf8');
    mode = statSync(target).mode & 0o777;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new AishError(`cannot read ${file}: ${describeFsError(err)} — nothing was changed`);
  }
  // What the file already says, or what was imported from it, is not written into it again.
  const real = realPath(target);
  const fromThisFile = (source: string) => {
    const m = /^(?:claude|gemini|codex|agents|antigravity):(.+)$/.exec(source);
    return m !== null && realPath(expandHome(m[1]!)) === real;
  };
  const fresh = notYetInFile(items, existing, fromThisFile);
  const placed = placeSection(existing, agentsMdSection(fresh.items));
  if (!placed.ok) throw new AishError(`cannot update ${file}: ${placed.reason} — fix them by hand; nothing was changed`);
  try {
    writeFileAtomicSync(target, placed.text, { mode, fsync: true });
  } catch (err) {
    throw new AishError(`cannot write ${file}: ${describeFsError(err)} — nothing was changed`);
  }
  const present = fresh.present ? `; left out ${fresh.present} already in it` : '';
  out(`exported ${plural(fresh.items.length, 'project item')} to ${file} (its aish memory section)${present}`);
}
