/** One fake OpenAI server per test file, emptied before each test. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { lastUserText, startFakeOpenAI, type FakeOpenAI, type Reply, type RecordedRequest } from './openai-server';

export interface SuiteServer {
  /** The running server (valid inside tests). */
  readonly server: FakeOpenAI;
  /** OPENAI_BASE_URL and OPENAI_API_KEY pointing at it. */
  env(extra?: Record<string, string>): Record<string, string>;
}

export function useFakeOpenAI(opts: { defaultReply?: Reply | ((req: RecordedRequest) => Reply) } = {}): SuiteServer {
  let server: FakeOpenAI | undefined;
  beforeAll(async () => {
    server = await startFakeOpenAI(opts);
  });
  afterAll(async () => server?.close());
  // Every test starts with no queued replies, no recorded requests and the file's default reply,
  // whatever the test before it changed.
  beforeEach(() => {
    server?.reset();
    server?.setDefault(opts.defaultReply ?? ((req) => ({ text: `echo: ${lastUserText(req)}` })));
  });
  return {
    get server() {
      if (!server) throw new Error('the fake server starts in beforeAll');
      return server;
    },
    env: (extra = {}) => ({ OPENAI_BASE_URL: server!.url, OPENAI_API_KEY: 'sk-test', ...extra }),
  };
}
