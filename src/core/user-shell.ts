/**
 * `!CMD` typed by the user: run it in aish's directory; its output is shown and goes to the model
 * with the next prompt (capped). Full-screen programs get the real terminal; `!!CMD` forces that
 * for anything. `!cd DIR` changes aish's own directory. Not gated: the user typed it.
 */
import { HeadTail, needsTerminal, runInTerminal, runShell } from '../tools/shell';
import type { EngineHost } from './host';

const DISPLAY_LIMIT = 64 * 1024;
const CONTEXT_LIMIT = 16 * 1024;

export interface UserShellDeps {
  readonly host: EngineHost;
  readonly cwd: string;
  changeDir(dir: string): string;
  cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Output for the model to see with the next prompt. */
  addShellContext(block: string): void;
}

/** `rest` is what follows the first `!`. */
export async function runUserShell(deps: UserShellDeps, rest: string): Promise<void> {
  const { host } = deps;
  let cmd = rest;
  let force = false;
  if (cmd.startsWith('!')) {
    force = true;
    cmd = cmd.slice(1);
  }
  cmd = cmd.trim();
  if (!cmd) {
    host.print({
      kind: 'info',
      text: '!CMD runs a shell command (its output goes to the model with your next prompt); !!CMD gives it the whole terminal',
    });
    return;
  }
  const cd = /^cd(?:\s+(.*))?$/.exec(cmd);
  if (cd) {
    host.print({ kind: 'info', text: deps.changeDir(unquote(cd[1] ?? '')) });
    return;
  }

  if ((force || needsTerminal(cmd)) && host.withTerminal) {
    const r = await host.withTerminal(() => runInTerminal(cmd, deps.cwd));
    if (r.exitCode !== 0) host.print({ kind: 'info', text: `${cmd}: exit ${r.exitCode ?? r.signal}` });
    return;
  }

  // The model's copy is cut from the whole stream, not from the display copy (already cut), so
  // the note's header and its block name the same omitted count.
  const forModel = new HeadTail(CONTEXT_LIMIT);
  const r = await deps.cancellable((signal) => {
    host.liveStart('shell', cmd);
    return runShell(cmd, {
      cwd: deps.cwd,
      signal,
      captureLimit: DISPLAY_LIMIT,
      onOutput: (t) => {
        forModel.push(t);
        host.liveText(t);
      },
    });
  });
  host.liveEnd();
  const status = r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`;
  const shown = r.output.replace(/\n$/, '');
  host.print({ kind: 'shell', text: `$ ${cmd}\n${shown}${shown ? '\n' : ''}[${status}]` });

  deps.addShellContext(shellNote(cmd, status, forModel));
}

/** What the model gets with the next prompt: one omitted count, in the header and in the block. */
export function shellNote(cmd: string, status: string, output: HeadTail): string {
  const omitted = output.omitted;
  const text = output.text().replace(/\n$/, '');
  const head = `Output of a shell command I ran (\`${cmd}\`, ${status}${omitted ? `, ${omitted} characters omitted from the middle` : ''})`;
  // An empty fence reads as lost output; saying so plainly tells the model the command was silent.
  if (!text.trim()) return `${head}: ${text ? 'only blank space, no text' : 'none, it printed nothing'}.`;
  return `${head}:\n\`\`\`\n${text}\n\`\`\``;
}

function unquote(s: string): string {
  const t = s.trim();
  return /^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t;
}
