/**
 * The conversation as a whole: start a new one, continue a saved one, and what it would send next.
 * `:clear`, `:resume`, `:rewind`, `:fork`, `:history` and the start-up `--resume` / `-c` use it.
 */
import type { ChatMessage } from '../broker/types';
import type { Conversation } from '../context/conversation';
import type { WindowResult } from '../context/window';
import type { SessionDigest } from '../sessions/digest';
import type { SessionRecorder } from '../sessions/recorder';
import type { EngineHost } from './host';
import type { ShellContext } from './prompt';
import { resumedOutput } from './resume-view';
import type { SessionKeeper } from './session-keeper';

export interface ChatControl {
  /** `:clear`: a new conversation and a new session log; memory stays. */
  newConversation(): void;
  /** The exact messages the next request would carry (`:history`). */
  requestMessages(): ChatMessage[];
  /** The user's last prompt in this conversation, as typed. */
  lastPrompt(): string | null;
  /** This session's latest digest: title, summary, working state. */
  digest(): SessionDigest | null;
  /**
   * Continue a saved or recent session (null: the latest; none there starts a new one); its
   * messages replace the conversation. `listHint` says where the names are listed.
   */
  resume(nameOrId: string | null, listHint?: string): number;
  /**
   * Take back the last `n` exchanges from the conversation and the log (which records the rewind and
   * keeps the turns). `prompt`: what the user typed to open the first one taken back; `since`: when.
   */
  rewind(n: number): Rewound;
  /** Save the session so far as NAME and go on in a new session from the same point; returns the saved path. */
  fork(name: string, force?: boolean): string;
}

interface Rewound {
  exchanges: number;
  prompt: string | null;
  since: string | null;
}

interface ChatParts {
  readonly host: Pick<EngineHost, 'print' | 'interactive' | 'pageLines'>;
  readonly conversation: Conversation;
  readonly recorder: Pick<SessionRecorder, 'path' | 'startNew' | 'resume' | 'resumeLatest' | 'rewind' | 'fork'>;
  readonly keeper: Pick<SessionKeeper, 'cleared' | 'resumedWith' | 'digest'>;
  readonly shell: ShellContext;
  request(): WindowResult;
  /** The status line's data changed. */
  notify(): void;
}

export function chatControl(p: ChatParts): ChatControl {
  return Object.freeze({
    newConversation() {
      p.keeper.cleared(p.recorder.path);
      p.conversation.clear();
      p.shell.take();
      p.recorder.startNew();
      p.notify();
    },
    requestMessages: () => p.request().messages,
    lastPrompt() {
      const m = p.conversation.messages.findLast((x) => x.role === 'user' && !x.content.startsWith('[NORRIS'));
      return m ? m.content : null;
    },
    digest: () => p.keeper.digest,
    resume(nameOrId: string | null, listHint?: string) {
      const r = nameOrId === null ? p.recorder.resumeLatest() : p.recorder.resume(nameOrId, listHint);
      if (!r) {
        p.host.print({ kind: 'info', text: 'no earlier session to continue — starting a new one' });
        return 0;
      }
      p.conversation.load(r.messages);
      p.keeper.resumedWith(r.digest);
      const shown = resumedOutput(r, p.host.interactive ? (p.host.pageLines?.() ?? 20) : 0);
      for (const item of shown.items) p.host.print(item);
      p.notify();
      return shown.turns;
    },
    rewind(n: number) {
      const logged = p.recorder.rewind(n);
      const live = p.conversation.rewind(n);
      const first = logged.removed[0];
      p.notify();
      return {
        exchanges: Math.max(logged.exchanges, live),
        prompt: first ? (first.typed ?? first.content) : null,
        since: first?.ts ?? null,
      };
    },
    fork: (name: string, force?: boolean) => p.recorder.fork(name, force),
  });
}
