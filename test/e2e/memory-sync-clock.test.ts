/**
 * What `aish memory sync` writes into memory.jsonl from another machine's file: records stamped
 * far ahead of this machine's clock are taken at this clock (and the report says so), never moving
 * this machine's clock; a received record keeps its fields in the order they were sent. And what a
 * dry run says. Real processes, real git; the other machine's file is written by hand.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatStamp, stampTime } from '../../src/memory/log/hlc';
import { realPath } from '../../src/util/paths';
import { git, gitAsAish } from '../helpers/sync-machines';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const WRITER = 'aaaaaaaaaaaaaaaa';

/** A memory repository holding one writer file with `lines` (each a record), pushed as aish would. */
function world(lines: object[]) {
  const root = realPath(tmpDir('aish-sync-clock-'));
  const bare = join(root, 'memory.git');
  git(root, 'init', '-q', '--bare', bare);
  const work = join(root, 'other');
  git(root, 'clone', '-q', bare, work);
  mkdirSync(join(work, 'writers'));
  const header = { meta: { format: 'aish-memory-sync', version: 1, writer: WRITER, name: 'skewed' } };
  writeFileSync(join(work, 'writers', `${WRITER}.jsonl`), [header, ...lines].map((l) => JSON.stringify(l) + '\n').join(''));
  gitAsAish(work, 'add', '-A');
  gitAsAish(work, 'commit', '-qm', `aish memory: skewed +${lines.length}`);
  gitAsAish(work, 'push', '-q', 'origin', 'HEAD:main');
  const home = join(root, 'here');
  mkdirSync(home);
  const config = join(home, 'config.ts');
  writeFileSync(config, `export default { memory: { sync: { remote: ${JSON.stringify(bare)}, name: "here", auto: "off" } } };\n`);
  const data = join(home, 'data');
  const aish = (...args: string[]) => runAish(['--config', config, '--data-dir', data, ...args], { home, timeoutMs: 60_000 });
  const records = () =>
    readFileSync(join(data, 'memory.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"id"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { aish, records };
}

const YEARS_AHEAD = Date.parse('2031-03-01T12:00:00.000Z');
const uid = (c: string) => `01JZZZZZZZZZZZZZZZZZZZZZZ${c}`;

describe('memory sync and another machine’s clock', () => {
  it('records stamped years ahead are taken at this clock, said so, and a new item here is stamped now', async () => {
    const w = world([
      {
        uid: uid('A'),
        hlc: formatStamp(YEARS_AHEAD, 0),
        ts: new Date(YEARS_AHEAD).toISOString(),
        kind: 'fact',
        content: 'from the future',
      },
      { uid: uid('B'), hlc: formatStamp(YEARS_AHEAD, 1), ts: '2026-01-02T00:00:00.000Z', kind: 'fact', content: 'stamp ahead, time not' },
      {
        uid: uid('C'),
        hlc: formatStamp(Date.parse('2026-01-03T00:00:00Z'), 0),
        ts: '2026-01-03T00:00:00.000Z',
        kind: 'fact',
        content: 'on time',
      },
    ]);
    const start = Date.now();
    const r = await w.aish('memory', 'sync');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^synced: sent 0, received 3 from 1 machine, 2 records from the future taken at this clock/m);
    const end = Date.now();
    const got = new Map(w.records().map((rec) => [rec.content, rec]));
    const future = got.get('from the future')!;
    expect(Date.parse(future.ts as string)).toBeGreaterThanOrEqual(start - 1000);
    expect(Date.parse(future.ts as string)).toBeLessThanOrEqual(end);
    expect(stampTime(future.hlc as string)).toBeLessThanOrEqual(end);
    const ahead = got.get('stamp ahead, time not')!;
    expect(stampTime(ahead.hlc as string)).toBeLessThanOrEqual(end);
    expect(ahead.ts).toBe('2026-01-02T00:00:00.000Z');
    expect(got.get('on time')).toMatchObject({ hlc: formatStamp(Date.parse('2026-01-03T00:00:00Z'), 0), ts: '2026-01-03T00:00:00.000Z' });

    // This machine's clock was not moved: what is written here now is stamped now.
    expect((await w.aish('memory', 'add', 'fact', 'written here afterwards')).code).toBe(0);
    const mine = w.records().find((rec) => rec.content === 'written here afterwards')!;
    expect(stampTime(mine.hlc as string)).toBeLessThanOrEqual(Date.now());
    expect(stampTime(mine.hlc as string)).toBeGreaterThanOrEqual(start - 1000);
    // And the next sync says nothing more about the future: those records are in.
    const again = await w.aish('memory', 'sync', '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 1, received: 0 });
    expect(again.stdout).not.toMatch(/future/);
  });

  it('--json counts them', async () => {
    const w = world([{ uid: uid('D'), hlc: formatStamp(YEARS_AHEAD, 0), ts: '2026-01-02T00:00:00.000Z', kind: 'fact', content: 'x' }]);
    const r = await w.aish('memory', 'sync', '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({ received: 1, future: 1 });
  });
});

describe('memory sync writes a received record as it was sent', () => {
  it('its fields keep their order, with the local id first and via last', async () => {
    const sent = [
      {
        uid: uid('E'),
        hlc: '1767225600000-0000',
        ts: '2026-01-01T00:00:00.000Z',
        kind: 'fact',
        content: 'pinned and tagged',
        tags: ['ops'],
        source: 'user',
        pinned: true,
        pinned_at: '2026-01-01T00:00:00.000Z',
      },
      { content: 'written in its own order', kind: 'pref', ts: '2026-01-01T00:00:01.000Z', uid: uid('F'), hlc: '1767225601000-0000' },
    ];
    const w = world(sent);
    expect((await w.aish('memory', 'sync')).code).toBe(0);
    const got = w.records();
    expect(Object.keys(got[0]!)).toEqual(['id', ...Object.keys(sent[0]!), 'via']);
    expect(Object.keys(got[1]!)).toEqual(['id', ...Object.keys(sent[1]!), 'via']);
    expect(got[0]).toMatchObject({ ...sent[0], via: 'skewed' });
  });
});

describe('memory sync --dry-run', () => {
  it('says what would be sent and received, never that it synced', async () => {
    const w = world([{ uid: uid('G'), hlc: '1767225600000-0000', ts: '2026-01-01T00:00:00.000Z', kind: 'fact', content: 'over there' }]);
    await w.aish('memory', 'add', 'fact', 'here');
    await w.aish('memory', 'add', '--private', 'fact', 'kept here');
    const r = await w.aish('memory', 'sync', '--dry-run');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('would send 1, receive 1 from 1 machine; would keep on this machine: 1 private');
  });
});
