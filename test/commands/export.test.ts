import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportCommand } from '../../src/commands/export';
import type { CommandServices } from '../../src/commands/types';
import { tmpDir } from '../helpers/tmp';

function ctx(rest: string, sessionPath: string | null, dataDir: string) {
  const services = {
    sessions: { path: sessionPath } as CommandServices['sessions'],
    paths: { dataDir } as CommandServices['paths'],
    chat: { digest: () => null } as unknown as CommandServices['chat'],
  };
  return { ...services, rest, argv: rest ? rest.split(/\s+/) : [] };
}

function session(): { dir: string; log: string } {
  const dir = tmpDir();
  const log = join(dir, '20250102-030405-7.jsonl');
  writeFileSync(
    log,
    `${JSON.stringify({ meta: { id: 'x', started: 't', version: 1 } })}\n${JSON.stringify({ ts: 't', role: 'user', content: 'hello there' })}\n`,
  );
  return { dir, log };
}

describe(':export', () => {
  it('takes a file name with spaces and --force before or after it', async () => {
    const { dir, log } = session();
    const file = join(dir, 'my notes.md');
    await exportCommand.run!(ctx(file, log, dir));
    expect(readFileSync(file, 'utf8')).toContain('# hello there');
    await expect(Promise.resolve().then(() => exportCommand.run!(ctx(file, log, dir)))).rejects.toThrow(/exists/);
    await exportCommand.run!(ctx(`${file} --force`, log, dir));
    await exportCommand.run!(ctx(`--force ${file}`, log, dir));
  });

  it('says there is nothing to export before the first prompt', async () => {
    const { dir } = session();
    await expect(Promise.resolve().then(() => exportCommand.run!(ctx('', null, dir)))).rejects.toThrow(
      'nothing to export yet — say something first',
    );
  });

  it('without FILE writes under <data dir>/exports and names the path', async () => {
    const { dir, log } = session();
    const r = await exportCommand.run!(ctx('', log, dir));
    expect(r && 'output' in r ? r.output?.[0]?.text : '').toContain(join('exports', '20250102-030405-7.md'));
    expect(readFileSync(join(dir, 'exports', '20250102-030405-7.md'), 'utf8')).toContain('## You');
  });
});
