/**
 * What the headless core needs from a front end (Ink REPL, plain line mode, `-p`). The core decides;
 * the host only shows things and collects answers.
 */
import type { RetryNotice } from '../broker/types';
import { parseAnswer } from '../tools/gate';
import type { StatusInfo } from './status';

type OutputKind = 'user' | 'assistant' | 'info' | 'warn' | 'error' | 'shell' | 'tool';

export interface OutputItem {
  kind: OutputKind;
  text: string;
  /** Assistant text cut short by the user or a failure. */
  interrupted?: boolean;
  /** Render as Markdown (finished assistant answers). */
  markdown?: boolean;
  /**
   * A list: a row too long for the terminal wraps with its continuation lines indented this many
   * columns past the row's own indentation (front ends without a width ignore it).
   */
  hang?: number;
  /** `hang` counts from the left edge, not from each row's indentation (rows led by a mark column). */
  hangFromEdge?: boolean;
}

export interface AskOptions {
  /** Pre-filled text the user can edit (e.g. a memory candidate). */
  initial?: string;
  /** A menu: typed into an empty answer, one of these keys answers at once, without Enter. */
  keys?: string;
}

export interface EngineHost {
  /** A finished block of output. */
  print(item: OutputItem): void;
  /** The live area: an answer or command output while it arrives. */
  liveStart(kind: 'assistant' | 'shell' | 'tool', label?: string): void;
  liveText(text: string): void;
  liveEnd(): void;
  /** The live answer's model call failed and is tried again after a wait. */
  liveRetry?(retry: RetryNotice): void;
  /**
   * Ask the user; resolves with the line they typed ('' for a bare Enter), or null when nobody can
   * answer (no terminal, end of input).
   */
  ask(question: string, opts?: AskOptions): Promise<string | null>;
  /**
   * A person at a terminal answers (the REPL). Questions a script would not expect — e.g. whether a
   * :remember replaces an older item — are only asked then.
   */
  interactive?: boolean;
  /** false: nobody can ever answer (`-p`, `--norris`); nothing is asked and questions are refusals. */
  canAsk?: boolean;
  /** Hand the real terminal to a full-screen program, then take it back. Absent: no terminal. */
  withTerminal?<T>(fn: () => Promise<T>): Promise<T>;
  /** The status line's data changed (model, cwd, memory, tokens, Norris step). */
  status?(status: StatusInfo): void;
  /** Lines of output that fit on one screen, for paging long lists; absent: print everything. */
  pageLines?(): number;
  /** Put text in the line editor as the next prompt's draft (`:rewind`); absent: there is no editor. */
  draft?(text: string): void;
  /** Put text on the terminal's clipboard (OSC 52); absent: there is no terminal to ask. */
  copy?(text: string): void;
}

/** `[y/N]`: only an explicit yes counts; Enter, anything else, or nobody there means no. */
export async function confirm(host: Pick<EngineHost, 'ask'>, question: string): Promise<boolean> {
  return parseAnswer(await host.ask(`${question} [y/N] `), false) === 'yes';
}
