/** Memory sync with real git: stale copies, copied data directories, compaction, the mass-forget guard, dry runs. */
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactFile } from '../../src/memory/ops';
import { syncNet } from '../helpers/sync-machines';

describe('memory sync: nothing resurrected, nothing doubled', () => {
  it('an item forgotten on A and brought back by a stale copy of a data directory stays forgotten', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const x = await a.store().add('fact', 'the old build server is ci-1');
    await a.store().add('fact', 'the new build server is ci-2');
    await a.sync();
    await b.sync();
    // b's data directory as it was, kept aside (a backup, a stale clone of dotfiles).
    const stale = net.machine('b-restored');
    cpSync(b.dir, stale.dir, { recursive: true });
    await a.store().forget(x.id);
    await a.sync();
    await b.sync();
    expect(b.texts()).toEqual(['the new build server is ci-2']);
    // The stale copy syncs: it is told of the forget, sends nothing that brings the item back.
    const r = await stale.sync();
    expect(r.newWriter).toBeUndefined(); // b never pushed, so nothing under its id is unknown to the copy
    expect(stale.texts()).toEqual(['the new build server is ci-2']);
    await a.sync();
    await b.sync();
    expect(a.texts()).toEqual(['the new build server is ci-2']);
    expect(b.texts()).toEqual(['the new build server is ci-2']);
  });

  it('a hand-copied line of a forgotten item is forgotten again, here only, and never sent', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const x = await a.store().add('fact', 'use yarn');
    await a.sync();
    await b.sync();
    const line = readFileSync(b.memoryPath, 'utf8')
      .split('\n')
      .find((l) => l.includes('use yarn'))!;
    await a.store().forget(x.id);
    await a.sync();
    await b.sync();
    // Pasted back by hand under a new id: same uid, the repository says it was forgotten.
    const { appendFileSync } = await import('node:fs');
    appendFileSync(b.memoryPath, line.replace(/"id":\d+/, '"id":500') + '\n');
    expect(b.texts()).toEqual(['use yarn']);
    await b.sync();
    expect(b.texts()).toEqual([]);
    await a.sync();
    expect(a.texts()).toEqual([]);
  });

  it('a data directory copied to a second machine gets a new writer id; nothing is doubled', async () => {
    const net = syncNet();
    const a = net.machine('a');
    await a.store().add('fact', 'one');
    await a.sync();
    const copy = net.machine('copy');
    cpSync(a.dir, copy.dir, { recursive: true });
    await a.store().add('fact', 'two, from a');
    await a.sync();
    await copy.store().add('fact', 'three, from the copy');
    const r = await copy.sync();
    expect(r.newWriter).toMatch(/^[0-9a-f]{16}$/);
    await a.sync();
    const writers = readdirSync(join(copy.dir, 'sync', 'repo', 'writers'));
    expect(writers).toHaveLength(2);
    for (const m of [a, copy]) expect(m.texts()).toEqual(['one', 'three, from the copy', 'two, from a']);
    // The copy's id is its own from now on: more syncs keep both in step without a third id.
    await a.store().add('fact', 'four');
    await a.sync();
    expect(await copy.sync()).toMatchObject({ received: 1 });
    expect(copy.texts()).toContain('four');
    expect(readdirSync(join(copy.dir, 'sync', 'repo', 'writers'))).toHaveLength(2);
  });

  it('a compaction before the sync does not lose a forget the others still need', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const x = await a.store().add('fact', 'the api lives on port 8080');
    await a.store().add('fact', 'kept');
    await a.sync();
    await b.sync();
    await a.store().forget(x.id);
    await compactFile(a.store()); // as :memory compact and aish memory compact do it
    expect(a.file()).not.toContain('"forget"');
    await a.sync();
    await b.sync();
    expect(b.texts()).toEqual(['kept']);
  });
});

describe('memory sync: the mass-forget guard and dry runs', () => {
  it('a clear on A makes B refuse without a yes (store untouched), and apply with one', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    for (let i = 0; i < 30; i++) await a.store().add('fact', `item number ${i}`);
    await a.sync();
    await b.sync();
    await a.store().clear();
    await a.sync();
    const before = b.file();
    const refused = await b.sync();
    expect(refused.refused).toEqual({ forgets: 30, active: 30 });
    expect(b.file()).toBe(before);
    expect(b.texts()).toHaveLength(30);
    // Asked in a terminal: "no" refuses as well.
    let asked = '';
    const no = await b.sync({ confirm: async (q) => ((asked = q), false) });
    expect(asked).toMatch(/forget 30 of 30 items/);
    expect(no.refused).toBeDefined();
    expect(b.file()).toBe(before);
    const yes = await b.sync({ yes: true });
    expect(yes).toMatchObject({ forgotten: 30 });
    expect(b.texts()).toEqual([]);
  });

  it('a few forgets in a large store pass without a question', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const items = [];
    for (let i = 0; i < 40; i++) items.push(await a.store().add('fact', `note ${i}`));
    await a.sync();
    await b.sync();
    await a.store().forgetMany(items.slice(0, 3).map((i) => i.id));
    await a.sync();
    expect(await b.sync()).toMatchObject({ forgotten: 3 });
    expect(b.texts()).toHaveLength(37);
  });

  it('--dry-run says what would be sent and received and writes nothing', async () => {
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    await a.store().add('fact', 'from a');
    await a.sync();
    await b.store().add('fact', 'from b');
    const before = b.file();
    const r = await b.sync({ dryRun: true });
    expect(r).toMatchObject({ dryRun: true, sent: 1, received: 1 });
    expect(b.file()).toBe(before);
    expect(net.history()).not.toContain('from b');
    expect(await b.sync()).toMatchObject({ sent: 1, received: 1 });
  });
});

describe('memory sync: projects by identity', () => {
  it('a project item taught in one clone applies in another clone of the same remote (ssh vs https URL) once confirmed there, not in another project', async () => {
    const { mkdirSync } = await import('node:fs');
    const { git } = await import('../helpers/sync-machines');
    const { scopeFilter } = await import('../../src/memory/project/project');
    const { projectIdentity, forgetProjectIdentities } = await import('../../src/memory/project/project-identity');
    const net = syncNet();
    const laptop = join(net.root, 'laptop', 'src', 'shop');
    const server = join(net.root, 'srv', 'checkouts', 'shop-2');
    const other = join(net.root, 'laptop', 'src', 'other');
    for (const d of [laptop, server, other]) {
      mkdirSync(d, { recursive: true });
      git(d, 'init', '-q');
    }
    git(laptop, 'remote', 'add', 'origin', 'git@github.com:acme/shop.git');
    git(server, 'remote', 'add', 'origin', 'https://github.com/acme/shop');
    git(other, 'remote', 'add', 'origin', 'git@github.com:acme/other.git');
    forgetProjectIdentities();
    const a = net.machine('a');
    const b = net.machine('b');
    const scope = projectIdentity(laptop).scopes[0]!;
    expect(scope).toBe('git:github.com/acme/shop');
    await a.store().add('fact', 'shop tests need redis running', { scope });
    // An item scoped by path before identities existed is sent under the project's identity.
    await a.store().add('fact', 'shop deploys on fridays are banned', { scope: laptop });
    await a.sync();
    await b.sync();
    const items = b.store().items();
    expect(items.map((i) => i.scope)).toEqual(['git:github.com/acme/shop', 'git:github.com/acme/shop']);
    // On the other machine the checkout is a new path: its items apply once the user confirms it there.
    expect(items.filter(scopeFilter(server))).toHaveLength(0);
    await (await import('../../src/memory/project/project-confirm')).trustProjectAt(b.memoryPath, server);
    expect(items.filter(scopeFilter(server))).toHaveLength(2);
    expect(items.filter(scopeFilter(other))).toHaveLength(0);
  });
});

describe('memory sync: a large store', () => {
  it('a writer file past 1 MiB goes on in a new part; every part reaches the others, each read once', async () => {
    const { writeFileSync } = await import('node:fs');
    const net = syncNet();
    const a = net.machine('a');
    const b = net.machine('b');
    const lines = [JSON.stringify({ meta: { format: 'aish-memory', version: 1 } })];
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 1; i <= 9000; i++) {
      const ts = new Date(t0 + i * 1000).toISOString();
      lines.push(
        JSON.stringify({
          id: i,
          uid: `01TEST${String(i).padStart(20, '0')}`,
          ts,
          kind: 'fact',
          content: `item ${i}: the worker on port ${i % 9000} reads queue ${i % 13}`,
        }),
      );
    }
    writeFileSync(a.memoryPath, lines.join('\n') + '\n', { mode: 0o600 });
    expect(await a.sync()).toMatchObject({ sent: 9000 });
    expect(await b.sync()).toMatchObject({ received: 9000 });
    await a.store().add('fact', 'one more, in the second part');
    expect(await a.sync()).toMatchObject({ sent: 1 });
    const writers = readdirSync(join(a.dir, 'sync', 'repo', 'writers')).sort();
    expect(writers).toHaveLength(2);
    expect(writers.filter((w) => /^[0-9a-f]{16}\.2\.jsonl$/.test(w))).toHaveLength(1);
    expect(await b.sync()).toMatchObject({ received: 1 });
    expect(await b.sync()).toMatchObject({ received: 0 });
    expect(b.store().items()).toHaveLength(9001);
  });
});

describe('memory sync: a hostile repository', () => {
  it('links committed as writer files are never followed: nothing read from, nothing written to, what they name', async () => {
    const { readFileSync, writeFileSync, symlinkSync, mkdirSync } = await import('node:fs');
    const { git, gitAsAish } = await import('../helpers/sync-machines');
    const net = syncNet();
    const b = net.machine('b');
    await b.store().add('fact', 'first');
    await b.sync();
    const writer = (JSON.parse(readFileSync(join(b.dir, 'sync', 'state.json'), 'utf8')) as { writer: string }).writer;
    const secret = join(net.root, 'secret.txt');
    writeFileSync(
      secret,
      '{"uid":"01SECRETSECRETSECRETSECRET","hlc":"1795721490946-0000","ts":"2026-01-01T00:00:00Z","kind":"fact","content":"stolen"}\n',
    );
    const target = join(net.root, 'bashrc');
    writeFileSync(target, 'export PATH=/usr/bin\n');
    const evil = join(net.root, 'evil');
    git(net.root, 'clone', '-q', net.remote, evil);
    mkdirSync(join(evil, 'writers'), { recursive: true });
    symlinkSync(secret, join(evil, 'writers', 'aaaaaaaaaaaaaaaa.jsonl'));
    const ours = join(evil, 'writers', `${writer}.jsonl`);
    const { rmSync } = await import('node:fs');
    rmSync(ours);
    symlinkSync(target, ours);
    // In a commit that passes for aish's: only the links themselves give it away.
    gitAsAish(evil, 'add', '-A');
    gitAsAish(evil, 'commit', '-qm', 'aish memory: links +0');
    git(evil, 'push', '-q', 'origin', 'HEAD:main');
    await b.store().add('fact', 'second');
    await expect(b.sync()).rejects.toThrow(/is not a memory repository \(its main branch holds writers\/[0-9a-f]{16}\.jsonl as a link/);
    expect(b.texts()).not.toContain('stolen');
    expect(readFileSync(target, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(readFileSync(secret, 'utf8')).toContain('stolen');
  });
});
