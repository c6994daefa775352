/** Tool names and results from MCP servers, as the model sees them (pure functions, no server). */
import { describe, expect, it } from 'vitest';
import { formatContent, sanitizeToolName } from '../../src/tools/mcp/tool-info';

describe('sanitizeToolName', () => {
  it('keeps valid names and replaces other characters', () => {
    expect(sanitizeToolName('fs', 'read_file', new Set())).toBe('fs__read_file');
    expect(sanitizeToolName('my server', 'a.b', new Set())).toBe('my_server__a_b');
  });
  it('shortens long names with a hash suffix, staying unique', () => {
    const long = sanitizeToolName('s', 'x'.repeat(100), new Set());
    expect(long).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(long).toHaveLength(64);
    const other = sanitizeToolName('s', `${'x'.repeat(99)}y`, new Set());
    expect(other).not.toBe(long);
  });
  it('disambiguates collisions', () => {
    const taken = new Set(['a_b__c']);
    const n = sanitizeToolName('a.b', 'c', taken);
    expect(n).not.toBe('a_b__c');
    expect(n).toMatch(/^a_b__c_[0-9a-f]{6}$/);
  });
});

describe('formatContent', () => {
  it('summarises binary parts and falls back to structured content', () => {
    const png = Buffer.alloc(1234).toString('base64');
    expect(
      formatContent([
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: png },
      ]),
    ).toBe('hi\n[image/png, 1234 bytes]');
    expect(formatContent([], { a: 1 })).toBe('{"a":1}');
  });
});
