/**
 * Before a prompt goes out in a checkout that names a known project the user has not confirmed
 * there (memory/project/project-confirm.ts): a person at the REPL is asked once, `[y/N]`; elsewhere one
 * line says how to confirm, and the project's items stay out.
 */
import { formatError } from '../util/errors';
import {
  adoptCreatedThere,
  declineProject,
  projectQuestion,
  questionText,
  scopeCounts,
  trustProjectAt,
  unconfirmedLine,
} from '../memory/project/project-confirm';
import type { MemorySession } from '../memory/session';
import { confirm, type EngineHost } from './host';

type Memory = Pick<MemorySession, 'path' | 'cwd' | 'injecting' | 'index' | 'reselect'>;

// A line already said for a checkout, per session: a script's every prompt need not repeat it.
const told = new WeakMap<object, Set<string>>();

export async function askAboutProject(memory: Memory, host: Pick<EngineHost, 'ask' | 'print' | 'interactive'>): Promise<void> {
  if (!memory.injecting) return;
  try {
    const counts = scopeCounts(memory.index());
    let q = projectQuestion(memory.cwd, counts);
    if (q?.createdThere.length) {
      // Items the user wrote here by path (before identities) already made this checkout the project.
      await adoptCreatedThere(memory.path, q);
      memory.reselect();
      q = projectQuestion(memory.cwd, counts);
    }
    if (!q) return;
    if (host.interactive !== true) {
      const said = told.get(memory) ?? new Set<string>();
      told.set(memory, said);
      if (!said.has(q.pairs[0]!.root)) host.print({ kind: 'warn', text: unconfirmedLine(q) });
      said.add(q.pairs[0]!.root);
      return;
    }
    if (q.declined) return;
    if (!(await confirm(host, questionText(q)))) {
      await declineProject(memory.path, q);
      host.print({ kind: 'info', text: `not used here — to use them later: :memory trust-project` });
      return;
    }
    host.print({ kind: 'info', text: await trustProjectAt(memory.path, memory.cwd) });
    memory.reselect();
  } catch (err) {
    host.print({ kind: 'warn', text: `memory: project not confirmed: ${formatError(err)}` });
  }
}
