import { describe, expect, it } from 'vitest';
import { errorBodyMessage } from '../../src/broker/error-body';

describe("errorBodyMessage: the server's own words from any error body", () => {
  it.each([
    ['{"error":{"message":"model crashed","type":"server_error"}}', 'model crashed'],
    ['{"error":"SyntaxError","message":"Unexpected token"}', 'SyntaxError: Unexpected token'],
    ['{"error":"model crashed"}', 'model crashed'],
    ['{"message":"model crashed"}', 'model crashed'],
    ['{"detail":"model crashed"}', 'model crashed'],
    ['{"detail":[{"loc":["body"],"msg":"bad"}]}', '[{"loc":["body"],"msg":"bad"}]'],
    ['Internal Server Error: boom\n  at x', 'Internal Server Error: boom at x'],
    ['<html><head><style>h1{}</style></head><body><h1>502 Bad Gateway</h1></body></html>', '502 Bad Gateway'],
    [
      '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>No such URL.</p></body></html>',
      'Not Found No such URL.',
    ],
    ['<html><head><title>404 Not Found</title></head><body></body></html>', '404 Not Found'],
    ['{"error": broken', '{"error": broken'],
    ['', ''],
  ])('%s', (body, said) => {
    expect(errorBodyMessage(body)).toBe(said);
  });

  it('a long body is cut to one short line', () => {
    const m = errorBodyMessage('x'.repeat(5000));
    expect(m.length).toBe(300);
    expect(m.endsWith('…')).toBe(true);
  });
});
