import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewInbox } from '../../src/commands/memory-review';
import type { ReviewIO } from '../../src/commands/memory-review-io';
import { setup } from '../../src/config/setup';
import { Engine } from '../../src/core/engine';
import type { AskOptions, EngineHost, OutputItem } from '../../src/core/host';
import { routerFor } from '../../src/input/router';
import { Inbox, inboxPath } from '../../src/memory/review/inbox';
import type { NewCandidate } from '../../src/memory/review/inbox-types';
import { MemoryStore } from '../../src/memory/store';
import { tmpDir } from '../helpers/tmp';

const cand = (content: string, extra: Partial<NewCandidate> = {}): NewCandidate => ({
  kind: 'fact',
  content,
  source: { session: 'sess-1' },
  ...extra,
});

/** Answers from a script; null once it runs out (end of input). Records questions and prints. */
function scripted(answers: Array<string | null>) {
  const asked: Array<[string, AskOptions | undefined]> = [];
  const printed: string[] = [];
  const io: ReviewIO = {
    ask: async (q, o) => {
      asked.push([q, o]);
      return answers.length ? answers.shift()! : null;
    },
    print: (l) => printed.push(l),
  };
  return { io, asked, printed };
}

function fresh() {
  const memPath = join(tmpDir(), 'memory.jsonl');
  return { memPath, store: MemoryStore.open(memPath), inbox: Inbox.open(memPath) };
}

describe('reviewInbox', () => {
  it('y keeps, n drops, e keeps the edited text, s skips; each echoed, then the tally', async () => {
    const { store, inbox } = fresh();
    await inbox.add([cand('one'), cand('two', { kind: 'pref' }), cand('three'), cand('four')]);
    const { io, asked, printed } = scripted(['y', 'n', 'e', 'three, edited', 's']);
    const r = await reviewInbox(inbox, store, io);
    expect(r).toMatchObject({ kept: 2, dropped: 1, skipped: 1, waiting: 1, wrote: true });
    expect(r.summary).toBe('[aish] review: kept 2, dropped 1, skipped 1; 1 still waiting');
    expect(store.items().map((i) => [i.id, i.content, i.source])).toEqual([
      [2, 'three, edited', 'session:sess-1'],
      [1, 'one', 'session:sess-1'],
    ]);
    expect(asked[3]).toEqual(['edit: ', { initial: 'three' }]);
    expect(printed).toEqual([
      '[inbox] 1/4 (fact) one  — from session sess-1',
      'kept as #1',
      '[inbox] 2/4 (pref) two  — from session sess-1',
      'dropped',
      '[inbox] 3/4 (fact) three  — from session sess-1',
      'kept as #2',
      '[inbox] 4/4 (fact) four  — from session sess-1',
      'skipped — still in the inbox',
    ]);
    expect(inbox.pending().map((c) => c.content)).toEqual(['four']);
    expect(inbox.decision(1)).toMatchObject({ action: 'keep', item: 1 });
    expect(inbox.decision(3)).toMatchObject({ action: 'keep', item: 2 });
    expect(inbox.decision(2)).toMatchObject({ action: 'drop' });
  });

  it('an empty answer or anything else skips; an empty edit skips; end of input stops', async () => {
    const { store, inbox } = fresh();
    await inbox.add([cand('a'), cand('b'), cand('c'), cand('d')]);
    const r = await reviewInbox(inbox, store, scripted(['', 'what?', 'e', '  ']).io);
    expect(r).toMatchObject({ kept: 0, dropped: 0, skipped: 3, waiting: 4, wrote: false });
    expect(store.items()).toEqual([]);
    expect(readFileSync(inboxPath(store.path), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('says when the inbox is empty', async () => {
    const { store, inbox } = fresh();
    const { io, asked } = scripted(['y']);
    expect((await reviewInbox(inbox, store, io)).summary).toBe('the inbox is empty');
    expect(asked).toEqual([]);
  });

  it('shows the quote and the duplicate; a superseding candidate shows old and new, and keeping it forgets the old item', async () => {
    const { store, inbox } = fresh();
    const old = await store.add('fact', 'Uses Node 18 in CI');
    await inbox.add([
      cand('Uses Node 20 in CI', { supersedes: old.id, duplicate: 9, source: { session: 'sess-2', quote: 'we moved CI to Node 20' } }),
    ]);
    const { io, printed } = scripted(['y']);
    await reviewInbox(inbox, store, io);
    expect(printed).toEqual([
      '[inbox] 1/1 (fact) Uses Node 20 in CI  — from session sess-2: "we moved CI to Node 20"  (duplicates #9)',
      '  old #1 (fact): Uses Node 18 in CI',
      '  new    (fact): Uses Node 20 in CI',
      'kept as #2, forgot #1',
    ]);
    expect(store.items().map((i) => i.content)).toEqual(['Uses Node 20 in CI']);
  });

  it('supersedes an item already forgotten: shown plainly and simply added', async () => {
    const { store, inbox } = fresh();
    const old = await store.add('fact', 'Uses Node 18 in CI');
    await store.forget(old.id);
    await inbox.add([cand('Uses Node 20 in CI', { supersedes: old.id })]);
    const { io, printed } = scripted(['y']);
    await reviewInbox(inbox, store, io);
    expect(printed).toEqual(['[inbox] 1/1 (fact) Uses Node 20 in CI  — from session sess-1', 'kept as #3']);
  });

  it('a candidate decided by another aish meanwhile is passed over', async () => {
    const { store, inbox, memPath } = fresh();
    await inbox.add([cand('a'), cand('b')]);
    const other = Inbox.open(memPath);
    const io: ReviewIO = {
      ask: async () => {
        await other.decide(2, 'drop');
        return 's';
      },
      print: () => {},
    };
    const r = await reviewInbox(inbox, store, io);
    expect(r).toMatchObject({ skipped: 1, dropped: 0, waiting: 1 });
  });
});

describe('reviewInbox against a second reviewer', () => {
  it('an answer to a candidate another aish decided while we asked writes nothing', async () => {
    const { store, inbox, memPath } = fresh();
    await inbox.add([cand('contested')]);
    const other = Inbox.open(memPath);
    const { io, printed } = scripted([]);
    io.ask = async () => {
      await other.decide(1, 'drop');
      return 'y';
    };
    const r = await reviewInbox(inbox, store, io);
    expect(printed.at(-1)).toBe('decided in another aish meanwhile — nothing written');
    expect(r).toMatchObject({ kept: 0, dropped: 0, wrote: false });
    expect(store.items()).toEqual([]);
    expect(inbox.decision(1)).toMatchObject({ action: 'drop' });
  });
});

describe(':memory review in the REPL', () => {
  it('walks the inbox through ui.ask and reselects [background] after a keep', async () => {
    const home = tmpDir();
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), OPENAI_API_KEY: 'k' };
    const s = await setup({}, env);
    await Inbox.open(s.paths.memoryPath).add([cand('the team deploys on Fridays')]);
    const printed: OutputItem[] = [];
    const answers = ['y'];
    const host: EngineHost = {
      print: (i) => printed.push(i),
      liveStart() {},
      liveText() {},
      liveEnd() {},
      ask: async () => answers.shift() ?? null,
    };
    const [, input] = Engine.compose(s, host, { env }, routerFor);
    await input.submit(':memory review');
    expect(printed.map((p) => p.text)).toEqual([
      '[inbox] 1/1 (fact) the team deploys on Fridays  — from session sess-1',
      'kept as #1',
      '[aish] review: kept 1, dropped 0, skipped 0; 0 still waiting',
    ]);
    printed.length = 0;
    await input.submit(':history');
    expect(printed.map((p) => p.text).join('\n')).toContain('the team deploys on Fridays');
  });

  it("a candidate's session name from a hand-edited inbox reaches the terminal without its escape sequence", async () => {
    const { store, inbox } = fresh();
    await inbox.add([cand('one', { source: { session: 'sess\u001b[30;40mhidden\u001b[0m' } })]);
    const { io, printed } = scripted(['s']);
    await reviewInbox(inbox, store, io);
    const line = printed.find((l) => l.startsWith('[inbox]'))!;
    expect(line).toContain('from session sesshidden');
    expect(line).not.toContain('\u001b');
  });
});
