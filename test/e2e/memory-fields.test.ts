/**
 * One declaration of an item's fields (src/memory/log/fields.ts). This file adds two fields in that
 * one place — the table, replaced for this file's module graph by itself plus two entries — and
 * nothing else: the real add, `list --json`, export, import, and sync through a bare git
 * repository (in-process, real git) carry them as the table says. `mood` goes everywhere;
 * `desk` is listed but neither exported nor sent; `scratch` is kept in memory.jsonl only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Setup } from '../../src/config/setup';
import { resolvePaths } from '../../src/config/paths';
import { DEFAULT_CONFIG } from '../../src/config/types';
import { Command } from 'commander';
import { MEMORY_VERBS } from '../../src/commands/memory-verbs';
import { registerVerb } from '../../src/frontends/cli/memory-door';
import { runVerb } from '../../src/frontends/cli/memory-run';
import { memoryExport, memoryImport } from '../../src/frontends/cli/memory-transfer';
import { recallText } from '../../src/memory/index/build';
import type { AddOptions } from '../../src/memory/log/records';
import { exportMarkdown, parseImport } from '../../src/memory/porting/transfer';
import { MemoryStore } from '../../src/memory/store';
import type { MemoryItem } from '../../src/memory/types';
import { syncNet, type Machine } from '../helpers/sync-machines';

vi.mock('../../src/memory/log/fields', async (original) => {
  const real = await original<typeof import('../../src/memory/log/fields')>();
  return {
    ...real,
    ITEM_FIELDS: {
      ...real.ITEM_FIELDS,
      mood: { type: 'text', add: true, wire: true, export: true, recall: true, list: true, redact: true, edit: 'kept' },
      desk: { type: 'text', add: true, wire: false, export: false, recall: false, list: true, redact: false, edit: 'never' },
      scratch: { type: 'text', add: true, wire: false, export: false, recall: false, list: false, redact: false, edit: 'never' },
    },
  };
});

type Extra = { mood?: unknown; desk?: unknown };
const TEXT = 'the release train leaves on fridays';

function setupOf(m: Machine): Setup {
  return {
    config: DEFAULT_CONFIG,
    configPath: null,
    paths: resolvePaths({ dataDirFlag: m.dir, config: DEFAULT_CONFIG, configPath: null }),
  };
}

/** What a command handler wrote to stdout. */
async function stdoutOf(run: () => Promise<void>): Promise<string> {
  let text = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk: string | Uint8Array) => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  try {
    await run();
  } finally {
    process.stdout.write = write;
  }
  return text;
}

const said = (m: Machine, content: string): Array<MemoryItem & Extra> =>
  MemoryStore.open(m.memoryPath)
    .items()
    .filter((it) => it.content === content);

/** `aish memory list --json`, in this process (so the table's mock holds): the list verb through the command line's door. */
async function listJson(s: Setup): Promise<void> {
  const memory = new Command('memory').exitOverride();
  const list = MEMORY_VERBS.find((v) => v.name === 'list')!;
  registerVerb(
    memory,
    list,
    runVerb,
    (fn) =>
      async (...args) =>
        void (await fn(s, ...args)),
    () => false,
  );
  await memory.parseAsync(['list', '--json'], { from: 'user' });
}

describe('memory: a field declared once travels every path', () => {
  it('add → list --json → export → import → sync to another data directory; what the table keeps home stays home', async () => {
    const net = syncNet();
    const [a, b, c] = [net.machine('a'), net.machine('b'), net.machine('c')];

    // add: the store writes the new fields, in the table's order, after the declared ones.
    await a.store().add('fact', TEXT, { tags: ['release'], mood: 'hopeful', desk: 'left', scratch: 'draft' } as AddOptions);
    const line = a
      .file()
      .split('\n')
      .find((l) => l.includes(TEXT))!;
    expect(Object.keys(JSON.parse(line) as object).slice(-5)).toEqual(['content', 'tags', 'mood', 'desk', 'scratch']);
    expect(recallText(said(a, TEXT)[0]!)).toBe(`${TEXT} release hopeful`);

    // edit: the table's fold — mood is kept, desk is not.
    await a.store().add('fact', 'the office is cold', { mood: 'grim', desk: 'back' } as AddOptions);
    const edited = await a.store().edit(said(a, 'the office is cold')[0]!.id, 'the office is warm');
    expect(edited.ok && (edited.item as Extra)).toEqual(expect.objectContaining({ mood: 'grim' }));
    expect(edited.ok && 'desk' in edited.item).toBe(false);

    // parse: a line whose new field is of the wrong type is unreadable, like any declared field's.
    const before = a.file();
    writeFileSync(a.memoryPath, before + `{"id":90,"ts":"2026-01-01T00:00:00Z","kind":"fact","content":"x","mood":5}\n`);
    expect(MemoryStore.open(a.memoryPath).skipped.map((s) => s.reason)).toEqual(['mood must be a string']);
    writeFileSync(a.memoryPath, before);

    // list --json: both, as stored.
    const listed = JSON.parse(await stdoutOf(() => listJson(setupOf(a)))) as Array<Record<string, unknown>>;
    expect(listed.find((it) => it.content === TEXT)).toMatchObject({ mood: 'hopeful', desk: 'left', from: 'here' });
    expect(listed.find((it) => it.content === TEXT)).not.toHaveProperty('scratch');

    // export (JSONL and Markdown): mood goes, desk does not.
    const file = join(a.dir, 'out.jsonl');
    await stdoutOf(() => memoryExport(setupOf(a), file, {}));
    const exported = readFileSync(file, 'utf8');
    expect(exported).toContain('"mood":"hopeful"');
    expect(exported).not.toMatch(/desk|scratch/);
    const store = a.store();
    const md = exportMarkdown(store.items(), (it) => store.isPinned(it), new Date());
    expect(parseImport(md).items).toEqual(expect.arrayContaining([expect.objectContaining({ content: TEXT, mood: 'hopeful' })]));

    // import into a second data directory, then sync it to a third through the bare repository.
    await stdoutOf(() => memoryImport(setupOf(b), file, {}));
    expect(said(b, TEXT)).toEqual([expect.objectContaining({ mood: 'hopeful', from: 'import:aish:out.jsonl' })]);
    await b.store().add('fact', 'the standup is at ten', { mood: 'calm', desk: 'right' } as AddOptions);
    expect((await b.sync()).sent).toBe(3);
    expect((await c.sync()).received).toBe(3);

    const [got] = said(c, TEXT);
    expect(got).toMatchObject({ mood: 'hopeful', from: 'import:aish:out.jsonl', via: 'b' });
    expect(said(c, 'the standup is at ten')).toEqual([expect.objectContaining({ mood: 'calm', via: 'b' })]);
    expect(c.file()).not.toContain('desk');
    expect(net.history()).not.toContain('desk');
    // And c lists it too.
    const atC = JSON.parse(await stdoutOf(() => listJson(setupOf(c)))) as Array<Record<string, unknown>>;
    expect(atC.find((it) => it.content === TEXT)).toMatchObject({ mood: 'hopeful', from: 'import:aish:out.jsonl' });
  });
});
