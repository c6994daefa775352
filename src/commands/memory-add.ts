/**
 * `:remember` / `:memory add`: write an item — unless it updates one you already have ("uses Node
 * 18" → "uses Node 20"). Then old and new are shown side by side and `replace #N? [y/N]`: yes writes
 * the new item and the old one's tombstone in one locked append; no adds it beside the old one.
 * Piped input is never asked (it adds, as before).
 */
import { confirm } from '../core/host';
import { addItem, privateNote } from '../memory/ops';
import { projectScope } from '../memory/project/project';
import { projectCreatedAt } from '../memory/project/project-confirm';
import { redactSecrets } from '../util/secrets/redact';
import type { MemorySession } from '../memory/session';
import { findSuperseded } from '../memory/review/supersede';
import type { MemoryItem, MemoryKind } from '../memory/types';
import { oneLine } from '../util/text';
import { info, type CommandResult, type CommandServices } from './types';

/** Items `text` may update: all of them in a small store, else the recall index's best 50 (none when it cannot be had). */
async function candidates(memory: MemorySession, text: string): Promise<readonly MemoryItem[]> {
  return (await memory.nearby(text, 50).catch(() => ({ items: [] }))).items;
}

/** `--project`: scoped to this project; `--private`: never synced. */
export interface AddWhere {
  project: boolean;
  private?: boolean;
}

export async function addWithSupersede(
  memory: MemorySession,
  ui: CommandServices['ui'],
  kind: MemoryKind,
  text: string,
  where: AddWhere,
): Promise<CommandResult> {
  await memory.ready();
  const store = memory.store();
  const scope = where.project ? projectScope(memory.cwd) : undefined;
  const opts = { ...(scope && { scope }), ...(where.private && { private: true }) };
  store.reload();
  const safe = redactSecrets(text);
  // Only a person is asked: a script's next line is its next command, not an answer.
  const old = ui.interactive && findSuperseded({ kind, content: safe.text, ...(scope && { scope }) }, await candidates(memory, safe.text));
  if (old) {
    const label = `old #${old.id}`;
    ui.print(
      info(
        [
          `this looks like an update of #${old.id}:`,
          `  ${label} (${old.kind}): ${oneLine(old.content)}`,
          `  ${'new'.padEnd(label.length)} (${kind}): ${oneLine(safe.text)}`,
        ].join('\n'),
      ),
    );
    if (await confirm(ui, `replace #${old.id}?`)) {
      const r = await store.supersede(old.id, kind, safe.text, opts);
      if (scope) await projectCreatedAt(memory.path, memory.cwd);
      memory.reselect();
      const note = safe.found.length ? ` — redacted: ${[...new Set(safe.found)].join(', ')}` : '';
      const forgot = r.replaced ? `, forgot ${r.replaced.id}` : '';
      return { output: [info(`memory: added ${r.item.id} (${r.item.kind})${privateNote(r.item)}${forgot}${note}`)] };
    }
  }
  const r = await addItem(store, kind, text, opts);
  if (!r.changed) return { output: [info(r.text)] };
  // Adding a project item here makes this checkout that project (project-trust.ts).
  if (scope) await projectCreatedAt(memory.path, memory.cwd);
  memory.reselect();
  const live = memory.injected.some((i) => i.id === r.item.id);
  // Not in [background]: it reaches the model through [recall] when a message is about it.
  return { output: [info(`memory: ${r.text}${live || !memory.injecting ? '' : ' — recalled when relevant ([background] is full)'}`)] };
}
