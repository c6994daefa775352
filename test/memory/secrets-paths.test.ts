/**
 * The writers below memory redact before they write: the input history file, a session log's
 * memory-bound tool calls and results, and session exports (unless raw).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportSession } from '../../src/sessions/export-file';
import { InputHistory } from '../../src/sessions/input-history';
import { SessionLog } from '../../src/sessions/session-log';
import { loadSession } from '../../src/sessions/sessions';
import { tmpDir } from '../helpers/tmp';

const TOKEN = 'ghp_R7tK2mQ9xLw4ZpV8nB3cY6hJ1sD5fG0aE2uI';

describe('input history', () => {
  it('writes entries redacted and keeps what was typed for ↑ in this run', () => {
    const path = join(tmpDir(), 'input-history');
    const h = new InputHistory(path);
    h.add(`export GITHUB_TOKEN=${TOKEN}`);
    h.add('PGPASSWORD=s3cret psql -h db');
    expect(h.entries).toEqual([`export GITHUB_TOKEN=${TOKEN}`, 'PGPASSWORD=s3cret psql -h db']);
    const file = readFileSync(path, 'utf8');
    expect(file).toBe('"export GITHUB_TOKEN=[redacted]"\n"PGPASSWORD=[redacted] psql -h db"\n');
    expect(new InputHistory(path).entries).toEqual(['export GITHUB_TOKEN=[redacted]', 'PGPASSWORD=[redacted] psql -h db']);
  });

  it('the trimming rewrite writes redacted entries too', () => {
    const path = join(tmpDir(), 'input-history');
    const h = new InputHistory(path);
    for (let i = 0; i <= 2000; i++) h.add(`step ${i} DB_PASSWORD=pw${i}x`);
    const file = readFileSync(path, 'utf8');
    expect(file.split('\n').length).toBeLessThan(1100);
    expect(file).not.toMatch(/pw\d+x/);
  });
});

describe('session log and exports', () => {
  function logWithSecrets(): string {
    const dir = tmpDir();
    const log = SessionLog.create(dir, {});
    log.append({ role: 'user', content: `my token is ${TOKEN}` });
    log.append({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'c1',
          type: 'function',
          function: { name: 'memory_remember', arguments: JSON.stringify({ kind: 'fact', content: `deploy token ${TOKEN}` }) },
        },
        { id: 'c2', type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command: `echo ${TOKEN}` }) } },
      ],
    });
    log.append({ role: 'tool', tool_call_id: 'c1', content: `remembered #1: deploy token ${TOKEN}` });
    log.append({ role: 'tool', tool_call_id: 'c2', content: TOKEN });
    log.close();
    return log.path;
  }

  it('keeps the conversation but redacts memory_remember arguments and results', () => {
    const turns = loadSession(logWithSecrets()).turns;
    const call = turns[1]!.tool_calls!;
    expect(JSON.parse(call[0]!.function.arguments)).toEqual({ kind: 'fact', content: 'deploy token [redacted]' });
    expect(call[1]!.function.arguments).toContain(TOKEN);
    expect(turns[2]!.content).toBe('remembered #1: deploy token [redacted]');
    expect(turns[0]!.content).toContain(TOKEN);
    expect(turns[3]!.content).toBe(TOKEN);
  });

  it('exports redacted, in Markdown and JSON, unless raw', () => {
    const path = logWithSecrets();
    for (const format of ['md', 'json'] as const) {
      const text = exportSession(path, 's', format);
      expect(text).not.toContain(TOKEN);
      expect(text).toContain('[redacted]');
      expect(exportSession(path, 's', format, undefined, { raw: true })).toContain(TOKEN);
    }
    expect(JSON.parse(exportSession(path, 's', 'json'))).toHaveLength(4);
  });
});
