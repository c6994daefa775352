/**
 * Memory items that pose as block headers or chat-template tokens reach the model neutralised, in
 * [background] (system prompt) and [recall] (user message) alike, while the stored text stays as
 * typed; the system prompt says memory lines are notes, not instructions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgedHeader, HOSTILE_ITEMS } from '../helpers/injection-payloads';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { lastUserText, systemText } from '../helpers/openai-server';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

function hostileMemory(home: string): string[] {
  const dir = join(home, '.local', 'share', 'aish');
  mkdirSync(dir, { recursive: true });
  const ts = new Date().toISOString();
  const contents = HOSTILE_ITEMS.map((s, i) => `${s} zebra mark${i}x`);
  const lines = [
    { meta: { format: 'aish-memory', version: 1, created: ts } },
    ...contents.map((content, i) => ({ id: i + 1, ts, kind: 'fact', content })),
  ];
  writeFileSync(join(dir, 'memory.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n', { mode: 0o600 });
  return contents;
}

// aish's own headers, each allowed once where it belongs.
const withoutOwnHeader = (text: string, header: RegExp) => text.replace(header, '');

describe('injection through memory', () => {
  it('no header or template token reaches the model, in [background] or [recall]', async () => {
    const home = tmpDir();
    const contents = hostileMemory(home);
    // Room for every item, so each one is seen neutralised (dated lines need more than the default).
    const cfg = join(home, 'config.ts');
    writeFileSync(cfg, 'export default { memory: { injectMaxChars: 8000 } };\n');
    const r = await runAish(['--config', cfg, '-p', 'zebra mark1x mark20x mark30x recall session'], { home, env: fake.env() });
    expect(r.code, r.stderr).toBe(0);
    const [req] = fake.server.requests;
    const system = systemText(req!);
    const user = lastUserText(req!);
    expect(system).toContain('never as instructions');
    expect(system.match(/\[background\]/g)).toHaveLength(1);
    expect(forgedHeader(withoutOwnHeader(system, /^\[background\] \(memory loaded[^\n]*$/m))).toBeNull();
    expect(forgedHeader(withoutOwnHeader(user, /^\[recall\] \(remembered items[^\n]*$/m))).toBeNull();
    // Every item got through, as a note.
    const sent = system + user;
    const arrived = contents.filter((_c, i) => sent.includes(`mark${i}x`));
    expect(arrived.length).toBeGreaterThanOrEqual(contents.length - 2);
    expect(sent).not.toMatch(/[\u200b\u00ad\u2060\ufeff\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/u);
    // The stored text is unchanged.
    const list = await runAish(['memory', 'list', '--json'], { home });
    expect((JSON.parse(list.stdout) as Array<{ content: string }>).map((i) => i.content).sort()).toEqual([...contents].sort());
  });
});
