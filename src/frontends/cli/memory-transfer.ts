/** `aish memory export` and `aish memory import`: memory to and from another machine. */
import { basename, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic-write';
import type { Setup } from '../../config/setup';
import { shownField } from '../../memory/format';
import { readImportFile } from '../../memory/porting/import-read';
import { importOrigin } from '../../memory/origin';
import { sameItemKey } from '../../memory/log/records';
import { isScope, SCOPE_FORMS } from '../../memory/scope-format';
import { redactText } from '../../util/secrets/redact';
import { duplicateFinder } from '../../memory/review/duplicates';
import { exportJsonl, exportMarkdown, parseImport, takenAtThisClock, type TransferItem } from '../../memory/porting/transfer';
import { AishError, UsageError } from '../../util/errors';
import { describeFsError } from '../../util/fs-safe';
import { oneLine } from '../../util/text';
import { plural } from '../../util/time';
import { escapeForJson } from '../../util/output-filter';
import { lineQuestions, saidYes } from '../line-questions';
import { recordArrival } from '../../memory/receipts/receipts';
import { openStore, storeOptions } from './memory-store';
import { out, warn } from './output';

export async function memoryExport(s: Setup, file: string | undefined, opts: { format?: string }): Promise<void> {
  const format = opts.format ?? (file?.endsWith('.md') ? 'md' : 'jsonl');
  if (format !== 'jsonl' && format !== 'md') throw new UsageError(`unknown format "${format}" — use jsonl, md or agents-md`);
  const store = openStore(s);
  const items = store.items();
  const text = (format === 'md' ? exportMarkdown : exportJsonl)(items, (it) => store.isPinned(it), new Date());
  if (!file) {
    // JSON lines spell bidi and invisible characters as \u escapes: the same data, safe to show.
    process.stdout.write(format === 'md' ? text : escapeForJson(text));
    return;
  }
  try {
    writeFileAtomicSync(resolve(file), text, { mode: 0o600, fsync: true });
  } catch (err) {
    throw new AishError(`cannot write ${file}: ${describeFsError(err)} — nothing was changed`);
  }
  out(`exported ${plural(items.length, 'item')} to ${file}`);
}

/** Scopes must be absolute (or ~/…), git:… or id:…; secrets are redacted; provenance says where it came from. */
function prepare(items: readonly TransferItem[], from: string, origin: string): { ready: TransferItem[]; refused: string[] } {
  const ready: TransferItem[] = [];
  const refused: string[] = [];
  for (const t of items) {
    if (t.scope !== undefined && !isScope(t.scope)) {
      refused.push(`"${oneLine(t.content, 40)}": ${SCOPE_FORMS} (got "${String(t.scope)}")`);
      continue;
    }
    // Its other fields were redacted as they were read (transfer.ts); the source is kept and exported again with the item.
    ready.push({
      ...t,
      content: redactText(t.content),
      source: t.source ? `${from} (${redactText(t.source)})` : from,
      // An item that came from elsewhere before its export keeps saying so; the rest came from this file.
      from: t.from ?? origin,
    });
  }
  return { ready, refused };
}

export async function memoryImport(s: Setup, file: string, opts: { dryRun?: boolean }): Promise<void> {
  const { text, problems } = readImportFile(file);
  const parsed = parseImport(text);
  // Every line left out is named, in file order.
  const byLine = (p: string) => Number(/^(\d+):/.exec(p)?.[1] ?? Infinity);
  for (const p of [...problems, ...parsed.problems].sort((a, b) => byLine(a) - byLine(b))) warn(`${basename(file)}:${p}`);
  const { ready, refused } = prepare(parsed.items, `import:${basename(file)}`, importOrigin('aish', basename(file)));
  for (const r of refused) warn(`skipped ${r}`);
  await importReady(s, ready, file, opts);
}

/**
 * Items already prepared (redacted, with scope and source) into the store. Near-duplicates (most
 * words the same, not the same text) are the user's call: asked in a terminal, left out otherwise.
 * Exact ones are left out by the store, under its lock.
 */
export async function importReady(
  s: Setup,
  ready: readonly TransferItem[],
  from: string,
  opts: { dryRun?: boolean; list?: boolean },
): Promise<void> {
  const store = openStore(s);
  const active = store.items();
  const chosen: TransferItem[] = [];
  let near = 0;
  const questions = process.stdin.isTTY && !opts.dryRun ? lineQuestions(process.stderr) : null;
  const duplicateOf = duplicateFinder(active);
  try {
    for (const t of ready) {
      const twin = duplicateOf(t);
      if (!twin || twin.scope !== t.scope || sameItemKey(twin.scope, twin.content) === sameItemKey(t.scope, t.content)) {
        chosen.push(t);
        continue;
      }
      const q = `"${oneLine(t.content, 70)}" is close to #${twin.id} "${oneLine(twin.content, 70)}" — import it too? [y/N] `;
      const answer = questions ? await questions.ask(q) : '';
      // Ctrl-C or Ctrl-D: the import is called off before anything is written.
      if (answer === null) throw new AishError('import stopped at a question — nothing imported');
      if (saidYes(answer)) chosen.push(t);
      else near++;
    }
  } finally {
    questions?.close();
  }
  const nearNote = near ? `, left out ${plural(near, 'near-duplicate')}${questions ? '' : ' (run in a terminal to review them)'}` : '';
  if (opts.dryRun) {
    if (opts.list) {
      const have = new Set(active.map((it) => sameItemKey(it.scope, it.content)));
      for (const t of chosen) {
        const key = sameItemKey(t.scope, t.content);
        if (have.has(key)) continue;
        have.add(key);
        out(
          `+ ${t.kind} ${t.scope ? `[${shownField(t.scope)}]` : '[global]'} ${oneLine(t.content, 100)}  (${shownField(t.source ?? from)})${t.private ? '  (private)' : ''}`,
        );
      }
    }
    out(`would import up to ${plural(chosen.length, 'item')} from ${from}${nearNote}; nothing written (--dry-run)`);
    return;
  }
  const dated = takenAtThisClock(chosen, new Date());
  const r = await store.importItems(dated.items);
  // An import is an arrival: one receipt (`aish memory log`), named by the tool and file.
  const origin = r.added.find((it) => it.from?.startsWith('import:'))?.from ?? importOrigin('aish', basename(from));
  await recordArrival(store.path, origin, { added: r.added }, () => false, storeOptions());
  const future = dated.future ? `; ${plural(dated.future, 'item')} dated in the future taken at this clock` : '';
  out(`imported ${plural(r.added.length, 'item')} from ${from}; skipped ${plural(r.duplicates.length, 'duplicate')}${nearNote}${future}`);
}
