/**
 * A prompt typed by the user, sent: `@path`s attached, `!cmd` output waiting from before put in
 * front, memory recalled for it, then one chat turn (tool calls through the gate).
 */
import { withAtFiles } from '../context/at-files';
import { recallQuery } from '../context/recall-query';
import type { MemorySession } from '../memory/session';
import type { EngineHost } from './host';
import { askAboutProject } from './project-ask';
import type { SessionKeeper } from './session-keeper';
import { runTurn, type TurnDeps, type TurnOutcome } from './turn';

/** Tool rounds per chat turn before aish stops and hands back to the user. */
const CHAT_TOOL_ROUNDS = 10;

/** `!cmd` output waiting to go out with the next prompt. */
export class ShellContext {
  private blocks: string[] = [];

  add(block: string): void {
    this.blocks.push(block);
  }

  /** The waiting blocks, and none wait any more. */
  take(): string[] {
    const b = this.blocks;
    this.blocks = [];
    return b;
  }
}

export interface PromptDeps {
  readonly turn: Readonly<TurnDeps>;
  readonly maxFileBytes: number;
  readonly memory: Pick<MemorySession, 'ready' | 'recall' | 'path' | 'cwd' | 'injecting' | 'index' | 'reselect'>;
  readonly shell: ShellContext;
  /** Norris leaves memory out of its steps (see docs/memory.md). */
  norrisRunning(): boolean;
  readonly keeper: Pick<SessionKeeper, 'userTurn' | 'afterExchange'>;
  /** `-p`: no prompt follows, so nothing is said to leave for the next one. */
  readonly oneshot: boolean;
}

/**
 * The answer streams to the host. `@path`s in `text` are attached (a refused one throws: nothing is
 * sent); `after` (piped stdin) is not scanned.
 */
export async function sendPrompt(d: PromptDeps, text: string, after = ''): Promise<TurnOutcome> {
  const { turn } = d;
  const host: Pick<EngineHost, 'print'> = turn.host;
  const refused = (line: string) => host.print({ kind: 'error', text: line });
  const sent = withAtFiles(text, { cwd: turn.cwd, maxFileBytes: d.maxFileBytes }, refused) + after;
  await d.memory.ready();
  // A checkout naming a known project the user has not confirmed: asked once, or told how (project-ask.ts).
  if (!d.norrisRunning()) await askAboutProject(d.memory, turn.host);
  const shell = d.shell.take();
  const content = shell.length ? `${shell.join('\n\n')}\n\n${sent}` : sent;
  // --no-memory recalls nothing either (memory.recall answers null).
  const recall = d.norrisRunning() ? null : await d.memory.recall(recallQuery(text, turn.conversation.messages));
  turn.conversation.add({ role: 'user', content }, recall?.block);
  turn.record({
    role: 'user',
    content,
    ...(recall && { recall: recall.items.map((r) => r.item.id) }),
    ...(content !== text && { typed: text }),
  });
  d.keeper.userTurn();
  const r = await runTurn(turn, { mode: 'chat', yes: false, maxRounds: CHAT_TOOL_ROUNDS });
  // Counted as the next prompt will find it: an answer too long to keep is said to leave now.
  d.keeper.afterExchange(turn.request(!d.oneshot).evicted);
  if (r.end === 'error' && r.error) throw r.error;
  if (r.end === 'rounds') {
    host.print({
      kind: 'warn',
      text: `stopped after ${CHAT_TOOL_ROUNDS} rounds of tool calls — say "go on" to let the model continue`,
    });
  }
  return r;
}
