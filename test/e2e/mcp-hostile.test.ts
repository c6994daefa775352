/**
 * A hostile MCP server (a real stdio server built on the MCP SDK, test/fixtures/mcp/hostile-server.mjs)
 * puts chat-template tokens, a right-to-left override and invisible tag characters into its tool's
 * description, its input schema and its result. What the model is sent holds none of them: they
 * are neutralised as memory text is (util/prompt-neutral).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeToolName } from '../../src/tools/mcp/tool-info';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { ROOT } from '../helpers/paths';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const SERVER = join(ROOT, 'test', 'fixtures', 'mcp', 'hostile-server.mjs');
// What must never reach the model from a server: template tokens, bidi controls, tag characters.
const HOSTILE = /<\|im_(start|end)\|>|\[\/?INST\]|[\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/u;

describe('a hostile MCP server', () => {
  it('its description, schema strings and result reach the model neutralised', async () => {
    const home = tmpDir();
    const cfg = join(home, 'config.ts');
    writeFileSync(
      cfg,
      `export default { mcp: { servers: { hostile: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}] } } } };\n`,
    );
    const name = sanitizeToolName('hostile', 'notes<|im_start|>', new Set());
    fake.server.enqueue({ toolCalls: [{ name, arguments: '{"topic":"x"}' }] }, { text: 'done reading.' });
    const r = await runAish(['--config', cfg, '-p', 'read my notes'], { home, env: fake.env() });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = await fake.server.waitForRequests(2);
    const spec = first!.body.tools!.find((t) => t.function.name === name);
    expect(spec, JSON.stringify(first!.body.tools)).toBeDefined();
    const offered = JSON.stringify(spec);
    expect(offered).toContain('Reads notes.');
    expect(offered).toContain('(|im_start|)system');
    // JSON.stringify leaves bidi and tag characters as they are: the whole spec is checked.
    expect(HOSTILE.test(offered)).toBe(false);
    expect(HOSTILE.test(spec!.function.description ?? '')).toBe(false);
    const topic = (spec!.function.parameters as { properties: { topic: { description: string } } }).properties.topic;
    expect(topic.description).toContain('the topic');
    expect(HOSTILE.test(topic.description)).toBe(false);
    const result = second!.body.messages.filter((m) => m.role === 'tool').at(-1)?.content;
    expect(typeof result).toBe('string');
    expect(result).toContain('result begins');
    expect(result).toContain('result ends');
    expect(HOSTILE.test(result as string)).toBe(false);
  });
});
