/**
 * `aish memory add KIND TEXT…` without the command-line parser and the rest of the CLI: the
 * launcher sends the plain form here (bin/aish.cjs), built as one CommonJS file
 * (dist/memory-add.cjs) that Node loads without its ES module loader — about 15 ms less for the
 * command scripts run most. Anything with another option goes to the full CLI, so both give the
 * same results (test/e2e/memory-quick-add.test.ts runs them side by side).
 */
import { setup } from '../../config/setup';
import { reportFailure } from './failure';
import { memoryAdd } from './memory-add';

/** The arguments the quick path takes: a kind, words, and `--project` anywhere after the kind. */
export function quickAddArgs(args: string[]): { kind: string; words: string[]; project: boolean } | undefined {
  const [kind, ...rest] = args;
  if (!kind || kind.startsWith('-')) return undefined;
  const words = rest.filter((a) => a !== '--project');
  if (words.length === 0 || words.some((w) => w.startsWith('-'))) return undefined;
  return { kind, words, project: words.length !== rest.length };
}

/** Exit status of the add; `args` is what follows `memory add`, already checked by quickAddArgs. */
export async function runQuickAdd(args: string[]): Promise<number> {
  const a = quickAddArgs(args);
  if (!a) return 2;
  try {
    await memoryAdd(await setup({}), a.kind, a.words, { project: a.project });
    return 0;
  } catch (err) {
    return reportFailure(err);
  }
}
