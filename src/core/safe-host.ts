/**
 * Everything the core shows goes through here first: model answers, tool and command output, MCP
 * results, and the messages that quote them. No escape sequence or control character reaches a
 * front end, so none reaches the terminal, whichever mode aish runs in.
 */
import { terminalSafe, TerminalSafeStream } from '../util/terminal-safe';
import type { EngineHost } from './host';

export function terminalSafeHost(host: EngineHost): EngineHost {
  let stream: TerminalSafeStream | null = null;
  const safe: EngineHost = {
    print: (item) => host.print({ ...item, text: terminalSafe(item.text) }),
    liveStart(kind, label) {
      stream = new TerminalSafeStream();
      host.liveStart(kind, label === undefined ? undefined : terminalSafe(label));
    },
    liveText(text) {
      stream ??= new TerminalSafeStream();
      const clean = stream.push(text);
      if (clean) host.liveText(clean);
    },
    liveEnd() {
      const rest = stream?.flush();
      stream = null;
      if (rest) host.liveText(rest);
      host.liveEnd();
    },
    ask: (question, opts) =>
      host.ask(terminalSafe(question), opts?.initial === undefined ? opts : { ...opts, initial: terminalSafe(opts.initial) }),
  };
  if (host.canAsk !== undefined) safe.canAsk = host.canAsk;
  if (host.interactive !== undefined) safe.interactive = host.interactive;
  if (host.withTerminal) safe.withTerminal = (fn) => host.withTerminal!(fn);
  if (host.liveRetry) safe.liveRetry = (r) => host.liveRetry!(r);
  if (host.status) safe.status = (s) => host.status!(s);
  if (host.pageLines) safe.pageLines = () => host.pageLines!();
  if (host.draft) safe.draft = (text) => host.draft!(terminalSafe(text));
  // Base64 keeps the sequence inert; the text is cleaned so a paste cannot carry escapes either.
  if (host.copy) safe.copy = (text) => host.copy!(terminalSafe(text));
  return safe;
}
