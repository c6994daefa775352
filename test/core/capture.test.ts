/**
 * Capture in a live engine: when it runs (eviction, :clear, a long session, never below
 * captureMinTurns, never when off), what it writes (inbox, digest line), and the [session] block
 * and eviction notice that follow.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setup } from '../../src/config/setup';
import type { AishConfig } from '../../src/config/types';
import { Engine } from '../../src/core/engine';
import type { EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { CAPTURE_INSTRUCTION } from '../../src/memory/review/capture-prompt';
import { Inbox } from '../../src/memory/review/inbox';
import { loadSession } from '../../src/sessions/sessions';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText, type RecordedRequest } from '../helpers/openai-server';
import { tmpDir } from '../helpers/tmp';

const isCapture = (req: RecordedRequest) => req.body?.messages?.[0]?.content === CAPTURE_INSTRUCTION;
const ANSWER = [
  'TITLE: Parser work',
  'SUMMARY: Building the parser.',
  'GOAL: GOAL-42 build the parser',
  'CURRENT: lexer done',
  'NEXT STEPS:',
  '- write the grammar',
  'MEMORY:',
  '- fact: the parser is hand-written',
].join('\n');

const fake = useFakeOpenAI({
  defaultReply: (req) => (isCapture(req) ? { text: ANSWER } : { text: `ok: ${lastUserText(req).slice(0, 40)}` }),
});
const startDir = process.cwd();
afterEach(() => process.chdir(startDir));

async function engineWith(memory: Partial<Exclude<AishConfig['memory'], false>>, maxTokens = 8000, opts: { capture?: boolean } = {}) {
  const home = tmpDir();
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), ...fake.env() };
  const s = await setup({}, env);
  if (s.config.memory) Object.assign(s.config.memory, memory);
  s.config.context.maxTokens = maxTokens;
  s.config.safety.sandbox = 'off';
  mkdirSync(s.paths.dataDir, { recursive: true });
  const printed: OutputItem[] = [];
  const host: EngineHost = { print: (i) => printed.push(i), liveStart() {}, liveText() {}, liveEnd() {}, ask: async () => null };
  process.chdir(home);
  const [engine, parts] = Engine.compose(s, host, { env, ...opts }, (p) => p);
  engine.start();
  return { s, engine, parts, input: routerFor(parts), printed, texts: () => printed.map((p) => p.text) };
}

describe('capture in a live session', () => {
  it('runs nothing below captureMinTurns, then on :clear reads the old log into the inbox and its digest line', async () => {
    const { s, engine, input, parts } = await engineWith({ captureMinTurns: 3 });
    await input.submit('GOAL-42 build the parser');
    await input.submit('the lexer is done');
    await input.submit(':clear');
    await parts.keeper.capture.idle();
    expect(fake.server.requests.some(isCapture)).toBe(false); // 2 prompts < 3

    await input.submit('one');
    await input.submit('two');
    await input.submit('three');
    const oldLog = parts.recorder.path!;
    await input.submit(':clear');
    await parts.keeper.capture.idle();
    expect(fake.server.requests.filter(isCapture)).toHaveLength(1);
    const pending = Inbox.open(s.paths.memoryPath).pending();
    expect(pending).toEqual([
      expect.objectContaining({
        kind: 'fact',
        content: 'the parser is hand-written',
        source: expect.objectContaining({ session: oldLog.split('/').pop()!.replace('.jsonl', '') }),
      }),
    ]);
    expect(loadSession(oldLog).digest).toMatchObject({ title: 'Parser work', userTurns: 3, state: { goal: 'GOAL-42 build the parser' } });
    expect(parts.chat.digest()).toBeNull(); // the new conversation knows nothing yet
    expect(engine.status().inbox).toBe(1);
  });

  it('says once that old turns left the window, and then sends the working state as [session]', async () => {
    const { input, printed, parts } = await engineWith({ captureMinTurns: 2 }, 700);
    const long = 'lorem ipsum dolor sit amet '.repeat(20);
    await input.submit(`GOAL-42 build the parser ${long}`);
    for (let i = 0; i < 5; i++) await input.submit(`step ${i} ${long}`);
    await parts.keeper.capture.idle();
    const notices = printed.filter((p) => p.text.startsWith('context full'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toMatch(/^context full: \d+ oldest turns left the window \(summarised into the working state\)$/);
    expect(fake.server.requests.filter(isCapture).length).toBeGreaterThanOrEqual(1);
    await input.submit('and now?');
    const last = fake.server.requests.filter((r) => !isCapture(r)).at(-1)!;
    expect(systemText(last)).toContain('[session]');
    expect(systemText(last)).toContain('**Goal:** GOAL-42 build the parser');
    await input.submit(':session');
    expect(printed.map((p) => p.text).join('\n')).toContain('**Next steps:**\n- write the grammar');
  });

  it('with capture "off" makes no capture call, and the eviction notice does not promise a summary', async () => {
    const { engine, input, printed, parts } = await engineWith({ capture: 'off', captureMinTurns: 1 }, 700);
    const long = 'lorem ipsum dolor sit amet '.repeat(20);
    for (let i = 0; i < 5; i++) await input.submit(`step ${i} ${long}`);
    await input.submit(':clear');
    await parts.keeper.capture.idle();
    expect(engine.handOffCapture()).toEqual([]);
    expect(fake.server.requests.some(isCapture)).toBe(false);
    expect(printed.find((p) => p.text.startsWith('context full'))!.text).toMatch(/left the window$/);
  });

  it('a one-shot engine (capture: false) never captures or hands off', async () => {
    const { engine, input, parts } = await engineWith({ captureMinTurns: 1 }, 8000, { capture: false });
    for (let i = 0; i < 4; i++) await input.submit(`q ${i}`);
    await input.submit(':clear');
    await parts.keeper.capture.idle();
    expect(engine.handOffCapture()).toEqual([]);
    expect(fake.server.requests.some(isCapture)).toBe(false);
  });

  it('hands the current log off at quit once enough happened since the last capture', async () => {
    const { engine, input, parts } = await engineWith({ captureMinTurns: 2 });
    await input.submit('a');
    expect(engine.handOffCapture()).toEqual([]);
    await input.submit('b');
    expect(engine.handOffCapture()).toEqual([parts.recorder.path]);
    expect(readdirSync(join(parts.recorder.path!, '..')).some((f) => f.endsWith('.capturing'))).toBe(false); // the front end marks, not the core
    expect(readFileSync(parts.recorder.path!, 'utf8')).not.toContain('"digest"');
  });
});
