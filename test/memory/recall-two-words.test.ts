/**
 * A message whose best match holds one common word may still be about something: another item
 * holds two of its words, one of them left out of the ranking as too common
 * (src/memory/recall/recall-cut.ts, holdsTwo). "how do I deploy this service?" asked inside the
 * project recalls "Deploys of this service go through Argo", not nothing.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type AishConfig, type MemoryConfig } from '../../src/config/types';
import { MemorySession } from '../../src/memory/session';
import { fillerNotes, writeNotes, type Note } from '../helpers/dev-notes';
import { tmpDir } from '../helpers/tmp';

const base = DEFAULT_CONFIG.memory as MemoryConfig;
/** Nothing in [background], so every item is recall's to choose. */
const CONFIG: AishConfig = { ...DEFAULT_CONFIG, memory: { ...base, injectMaxChars: 0 } };
const PROJ = '/work/payments';
const FACT = 'Deploys of this service go through the payments-prod Argo CD application; sync is manual';

const open: MemorySession[] = [];
afterEach(() => {
  for (const m of open.splice(0)) m.close();
});

async function sessionWith(notes: readonly Note[], cwd: string) {
  const path = join(tmpDir(), 'memory.jsonl');
  writeNotes(path, notes);
  const m = new MemorySession(CONFIG, path, { cwd: () => cwd }, { notice: () => {}, changed: () => {} });
  open.push(m);
  await m.ready();
  return m;
}

const recalled = async (m: MemorySession, text: string) => (await m.recall([{ text, weight: 1 }]))?.items.map((r) => r.item.content) ?? [];

/**
 * "deploy" in more than 5 % of the items (left out as common); "service" in more than 3 % (too
 * common to rest on alone), mostly in short notes that outrank the fact on it.
 */
function store(): Note[] {
  const deploys = Array.from({ length: 110 }, (_, i) => ({ content: `Deploys of the ledger to staging go through Jenkins, run ${i}` }));
  const services = Array.from({ length: 40 }, (_, i) => ({ content: `Service ${i} restarted` }));
  return [...fillerNotes(1000), ...deploys, ...services, { content: FACT, scope: PROJ }];
}

describe('two words of the message in one item', () => {
  it('a project question resting on a common word and a word left out as common recalls its fact first', async () => {
    const m = await sessionWith(store(), PROJ);
    expect((await recalled(m, 'how do I deploy this service?'))[0]).toBe(FACT);
    expect((await m.plan('how do I deploy this service?')).recall[0]?.item.content).toBe(FACT);
  });

  it('but one common word alone still recalls nothing', async () => {
    const m = await sessionWith(store(), PROJ);
    expect(await recalled(m, 'is the service up?')).toEqual([]);
  });
});

describe('words left out as common order equally relevant hits', () => {
  it('of two notes as relevant, the one holding more of the left-out words comes first, however newer the other', async () => {
    // "port", "dev" and "run" in more than 5 % of the items: the message ranks on "server" alone.
    const tickets = Array.from({ length: 110 }, (_, i) => ({ content: `Ticket ${i}: a dev box port forwarding run is flaky` }));
    const older = 'The payments dev server runs on port 8081 today';
    const newer = 'The ledger dev server starts with uvicorn on port 6379';
    const m = await sessionWith([...fillerNotes(1000), ...tickets, { content: older }, { content: newer }], '/work/elsewhere');
    expect(await recalled(m, 'what port does the dev server run on?')).toEqual([older, newer]);
  });
});
