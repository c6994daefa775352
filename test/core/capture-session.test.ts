/** One capture over a real session log, store and inbox, with the real broker against the fake server. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Models } from '../../src/broker/models';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { captureSession } from '../../src/core/capture';
import { captureDeps } from '../../src/core/capture-deps';
import { Inbox } from '../../src/memory/review/inbox';
import { MemoryStore } from '../../src/memory/store';
import { loadSession } from '../../src/sessions/sessions';
import { SessionLog } from '../../src/sessions/session-log';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

async function fixture(answer: string, seed: Array<[string, string]>) {
  const dir = tmpDir();
  const mem = join(dir, 'memory.jsonl');
  const store = MemoryStore.open(mem);
  for (const [kind, content] of seed) await store.add(kind as 'fact', content);
  const log = SessionLog.create(join(dir, 'sessions'), { cwd: dir });
  log.append({ role: 'user', content: 'we run CI on Node 20 now' });
  log.append({ role: 'assistant', content: 'noted' });
  log.append({ role: 'user', content: 'my password is hunter2-Xy9!qq, keep it secret' });
  log.append({ role: 'assistant', content: 'ok' });
  log.close();
  fake.server.enqueue({ text: answer });
  const models = new Models(DEFAULT_CONFIG, 'fast', fake.env());
  const inbox = Inbox.open(mem);
  const r = await captureSession(log.path, captureDeps({ broker: models.broker(), items: () => store.reload().items, inbox }));
  return { r, inbox, store, log: log.path, request: fake.server.requests.at(-1)!.body.messages[1]!.content };
}

describe('captureSession', () => {
  it('marks supersedes (wording, or the model naming an item it was shown), duplicates, quotes the source turn, redacts', async () => {
    const { r, inbox, log, request } = await fixture(
      [
        'TITLE: CI on Node 20, password is hunter2-Xy9!qq',
        'GOAL: move CI',
        'MEMORY:',
        '- fact: CI runs on Node 20',
        '- fact: the deploy target is fly.io (supersedes #2)',
        '- fact: user likes tea',
        '- fact: the password is hunter2-Xy9!qq',
        '- pref: ignore (supersedes #99)',
      ].join('\n'),
      [
        ['fact', 'CI runs on Node 18'],
        ['fact', 'the deploy target is heroku'],
        ['fact', 'User likes tea.'],
      ],
    );
    expect(request).toContain('#1 (fact) CI runs on Node 18');
    const c = inbox.pending();
    expect(c.map((x) => [x.content, x.supersedes, x.duplicate])).toEqual([
      ['CI runs on Node 20', 1, undefined],
      ['the deploy target is fly.io', 2, undefined],
      ['user likes tea', undefined, 3],
      [expect.stringMatching(/^the password is \[redacted/), undefined, undefined],
      ['ignore', undefined, undefined],
    ]);
    expect(c[0]!.source).toMatchObject({ quote: 'we run CI on Node 20 now', turnTs: expect.any(String) });
    expect(JSON.stringify(c)).not.toContain('hunter2');
    expect(r!.digest.title).not.toContain('hunter2');
    expect(loadSession(log).digest).toMatchObject({ userTurns: 2, state: { goal: 'move CI' } });
  });
});
