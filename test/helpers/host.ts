/** An EngineHost for in-process tests: records what is printed and asked; questions take scripted answers (null once they run out). */
import type { EngineHost, OutputItem } from '../../src/core/host';

export function recordingHost(
  answers: Array<string | null>,
  extra: Partial<EngineHost> = {},
): { host: EngineHost; printed: OutputItem[]; asked: string[] } {
  const printed: OutputItem[] = [];
  const asked: string[] = [];
  const host: EngineHost = {
    print: (i) => printed.push(i),
    liveStart() {},
    liveText() {},
    liveEnd() {},
    ask: async (q) => {
      asked.push(q);
      return answers.length ? answers.shift()! : null;
    },
    ...extra,
  };
  return { host, printed, asked };
}
