import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../helpers/random';
import { highlightCode, renderMarkdown } from '../../../src/frontends/repl/markdown';

const plain = (md: string, width = 80): string => renderMarkdown(md, { width, color: false });
const colored = (md: string, width = 80): string => renderMarkdown(md, { width, color: true });
const SGR = /\x1b\[[\d;]*m/g;
const strip = (s: string): string => s.replace(SGR, '');

describe('renderMarkdown layout (color: false)', () => {
  it('word-wraps paragraphs at the given width and keeps their line breaks (as they streamed)', () => {
    expect(plain('The quick brown fox\njumps over the lazy dog and keeps running', 20)).toBe(
      ['The quick brown fox', 'jumps over the lazy', 'dog and keeps', 'running'].join('\n'),
    );
    // Deliberately changed (issue 32): a soft break is not joined into one paragraph.
    const lines = Array.from({ length: 120 }, (_, i) => `Line ${String(i + 1).padStart(3, '0')}`);
    expect(plain(lines.join('\n'))).toBe(lines.join('\n'));
    expect(plain('a **b**\nc\n- x\n  y')).toBe('a b\nc\n\n• x\n  y');
    expect(plain('> q1\n> q2')).toBe('│ q1\n│ q2');
  });

  it('splits words wider than the column and honours hard breaks', () => {
    expect(plain(`a ${'x'.repeat(25)}`, 10)).toBe(['a', 'x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)].join('\n'));
    expect(plain('line one  \nline two')).toBe('line one\nline two');
  });

  it('separates blocks with one blank line and has no trailing newline', () => {
    expect(plain('# Title\n\nPara one.\n\n\n\nPara two.\n\n')).toBe('# Title\n\nPara one.\n\nPara two.');
    expect(plain('')).toBe('');
  });

  it('renders inline styles as plain text, code spans with backticks, entities decoded', () => {
    expect(plain('**bold** *it* ~~del~~ `a &amp; b` A &amp; B &lt;c&gt; &copy; \\*x\\*')).toBe('bold it del `a &amp; b` A & B <c> © *x*');
  });

  it('shows links as "text (url)" unless the text is the url', () => {
    expect(plain('[docs](https://x.dev/a?b=1&amp;c=2) and <https://y.dev> and [https://z.dev](https://z.dev) and https://w.dev', 120)).toBe(
      'docs (https://x.dev/a?b=1&c=2) and https://y.dev and https://z.dev and https://w.dev',
    );
    expect(plain('![a cat](cat.png)')).toBe('[image: a cat] (cat.png)');
  });

  it('indents nested lists with hanging indent and renders task items', () => {
    const md = ['- one', '- two words that wrap here', '  - nested item', '    1. deep', '- [ ] todo', '- [x] done'].join('\n');
    expect(plain(md, 20)).toBe(
      ['• one', '• two words that', '  wrap here', '  ◦ nested item', '    1. deep', '[ ] todo', '[x] done'].join('\n'),
    );
  });

  it('right-aligns ordered markers and wraps under the text', () => {
    expect(plain('9. nine\n10. ten is a longer item', 16)).toBe([' 9. nine', '10. ten is a', '    longer item'].join('\n'));
  });

  it('puts blank lines between items of loose lists', () => {
    expect(plain('- a\n\n- b\n\n  more')).toBe(['• a', '', '• b', '', '  more'].join('\n'));
  });

  it('indents code blocks by two spaces, keeps their fences and language, and never wraps them', () => {
    const long = 'const someVeryLongIdentifier = anotherVeryLongFunctionName(argument);';
    // Deliberately changed (issue 13): the fences and the label were dropped before.
    expect(plain(['```js', 'if (a) {', '\treturn 1;', '}', '', long, '```'].join('\n'), 20)).toBe(
      ['```js', '  if (a) {', '      return 1;', '  }', '', `  ${long}`, '```'].join('\n'),
    );
    expect(plain('para\n\n    indented code\n      more')).toBe('para\n\n  indented code\n    more');
  });

  it('prefixes blockquotes with a bar, wrapping inside it', () => {
    expect(plain('> quoted text that wraps\n>\n> second para', 16)).toBe(
      ['│ quoted text', '│ that wraps', '│', '│ second para'].join('\n'),
    );
  });

  it('draws horizontal rules at min(width, 40)', () => {
    expect(plain('---', 80)).toBe('─'.repeat(40));
    expect(plain('---', 12)).toBe('─'.repeat(12));
  });

  it('lays tables out in fitted, aligned columns', () => {
    const md = '| Name | Age | City |\n|------|----:|:----:|\n| Bob | 42 | Paris |\n| Alexandra | 7 | NY |';
    expect(plain(md, 40)).toBe(
      ['Name      │ Age │ City', '──────────┼─────┼──────', 'Bob       │  42 │ Paris', 'Alexandra │   7 │  NY'].join('\n'),
    );
  });

  it('falls back to "col: value" lines when the table is too wide', () => {
    const md = '| Key | Description |\n|---|---|\n| a | short |\n| b | a much longer description text |';
    expect(plain(md, 30)).toBe(['Key: a', 'Description: short', '', 'Key: b', 'Description: a much longer', 'description text'].join('\n'));
  });

  it('shows HTML as plain text', () => {
    expect(plain('<div>\nhi\n</div>\n\nx <b>y</b> z')).toBe('<div>\nhi\n</div>\n\nx <b>y</b> z');
  });

  it('strips control characters from the model text, even via entities', () => {
    const out = plain('a\x1b[31mred\x1b[0m &#27;[2J \x07bell\u009b');
    expect(out).not.toContain('\x1b');
    expect(out).toBe('a[31mred[0m [2J bell');
  });
});

describe('renderMarkdown colours (color: true)', () => {
  it('uses SGR bold and resets it', () => {
    expect(colored('**bold**')).toBe('\x1b[1mbold\x1b[0m');
    expect(colored('a **b *c* d** e')).toBe('a \x1b[1mb \x1b[0m\x1b[1;3mc\x1b[0m\x1b[1m d\x1b[0m e');
  });

  it('highlights TypeScript keywords in fenced code', () => {
    const out = colored('```ts\nconst x: number = 1; // note\n```');
    expect(out.startsWith('\x1b[90m```ts\x1b[0m\n  ')).toBe(true);
    expect(out).toContain('\x1b[35mconst\x1b[0m');
    expect(out).toContain('\x1b[90m// note\x1b[0m');
  });

  it('colours inline code distinctly and drops the backticks', () => {
    expect(colored('run `ls`')).toBe('run \x1b[33mls\x1b[0m');
  });

  it('resets SGR state at the end of every line', () => {
    const md = [
      '# Heading *with* style',
      '**A bold sentence that is long enough to wrap over several lines of this narrow terminal.**',
      '> *quoted italic text that also wraps across lines* and ~~struck text~~',
      '- [link text that wraps](https://example.com/a/very/long/url/that/will/wrap/too)',
      '```python\n"""a docstring\nspanning lines"""\ndef f():\n    return 1\n```',
      '| **h** | i |\n|---|---|\n| `c` | *d* |',
    ].join('\n\n');
    const lines = colored(md, 24).split('\n');
    expect(lines.length).toBeGreaterThan(15);
    for (const line of lines) {
      const codes = line.match(SGR) ?? [];
      if (codes.length > 0) expect(codes[codes.length - 1], JSON.stringify(line)).toBe('\x1b[0m');
    }
    // The docstring spans two lines: the second must re-open the string colour itself.
    expect(lines).toContain('  \x1b[32mspanning lines"""\x1b[0m');
  });

  it('wraps on visible width, so colour does not change the layout', () => {
    const md = 'Some **bold words** and *italic ones* with ~~strike~~ and [a link](https://e.x) repeated. '.repeat(4);
    const out = colored(md, 30);
    expect(strip(out)).toBe(plain(md, 30));
    for (const line of strip(out).split('\n')) expect(line.length).toBeLessThanOrEqual(30);
  });
});

describe('highlightCode', () => {
  const snippet = 'function add(a, b) {\n  return a + b; // sum\n}';

  it('returns code unchanged without colour', () => {
    expect(highlightCode(snippet, 'js', false)).toBe(snippet);
  });

  it('colours known languages and aliases', () => {
    expect(highlightCode(snippet, 'javascript', true)).toContain('\x1b[35mfunction\x1b[0m');
    expect(highlightCode('x = "s"', 'py', true)).toContain('\x1b[32m"s"\x1b[0m');
    expect(highlightCode('+added\n-removed', 'diff', true)).toBe('\x1b[32m+added\x1b[0m\n\x1b[31m-removed\x1b[0m');
  });

  it('auto-detects short unlabeled code but leaves long code and prose plain', () => {
    expect(highlightCode(snippet, undefined, true)).toContain('\x1b[35mfunction\x1b[0m');
    expect(highlightCode(snippet, 'klingon', true)).toContain('\x1b[35m');
    const long = `${snippet}\n`.repeat(60);
    expect(long.length).toBeGreaterThan(2048);
    expect(highlightCode(long, undefined, true)).not.toContain('\x1b');
    expect(highlightCode('Build finished in 3.2s', undefined, true)).not.toContain('\x1b');
    expect(highlightCode('a < b && c', 'text', true)).toBe('a < b && c');
  });

  it('decodes the HTML entities highlight.js emits', () => {
    expect(strip(highlightCode('if (a < b && c > "d") { x = \'e\'; }', 'js', true))).toBe('if (a < b && c > "d") { x = \'e\'; }');
  });
});

describe('robustness', () => {
  const pieces = [
    '*',
    '**',
    '_',
    '`',
    '```',
    '~~',
    '#',
    '> ',
    '- ',
    '1. ',
    '[',
    ']',
    '(',
    ')',
    '!',
    '|',
    '|---|',
    '\n',
    '\n\n',
    ' ',
    '  ',
    '\t',
    '<',
    '>',
    '&',
    '&amp;',
    '&#27;',
    '&#x0;',
    ';',
    '\\',
    '[ ] ',
    '\x1b',
    '\x00',
    '\r',
    'é',
    '中文',
    '🙂',
    '\u0301',
    'word',
    'http://x.y',
    '<div>',
    '</div>',
    '---',
    '    ',
    '```ts\n',
    '```\n',
  ];

  it('never throws on random input and never emits ESC without colour', () => {
    const rand = mulberry32(42);
    for (let i = 0; i < 400; i++) {
      let s = '';
      const n = Math.floor(rand() * 60);
      for (let j = 0; j < n; j++) s += pieces[Math.floor(rand() * pieces.length)];
      const width = 1 + Math.floor(rand() * 120);
      const p = renderMarkdown(s, { width, color: false });
      const c = renderMarkdown(s, { width, color: true });
      expect(typeof p).toBe('string');
      expect(p.includes('\x1b'), JSON.stringify(s)).toBe(false);
      expect(c.replace(SGR, '').includes('\x1b'), JSON.stringify(s)).toBe(false);
      expect(p.endsWith('\n'), JSON.stringify(s)).toBe(false);
    }
  });

  it('survives pathological input and bad options', () => {
    expect(() => renderMarkdown('>'.repeat(3000) + ' x', { width: 80, color: true })).not.toThrow();
    expect(() => renderMarkdown('['.repeat(5000) + '*'.repeat(5000), { width: 80, color: true })).not.toThrow();
    expect(renderMarkdown(undefined as unknown as string, { width: 80, color: false })).toBe('');
    expect(renderMarkdown('hello world', { width: Number.NaN, color: false })).toBe('hello world');
    expect(renderMarkdown('hello world', { width: 0, color: false })).toBe('hello world');
    expect(renderMarkdown('hello world', { width: 5, color: false })).toBe('hello\nworld');
  });

  it('renders an ~80 KB answer with many code blocks', () => {
    const parts: string[] = [];
    let sections = 0;
    const langs = ['ts', 'python', 'bash', 'json', 'go', 'rust', ''];
    for (let i = 0; parts.join('\n').length < 80_000; i++, sections++) {
      parts.push(
        `## Section ${i}\n\nThis paragraph has **bold**, *italic*, \`inline code\`, a [link](https://example.com/${i}) and enough words to wrap a couple of times at eighty columns, plus &amp; entities.\n\n- item one with \`code\`\n- item two\n  1. nested ordered\n  2. another\n\n| key | value |\n|-----|-------|\n| a${i} | b${i} |\n`,
      );
      const code = `const value${i} = await fetch("https://x/${i}");\nif (value${i}.ok) { console.log(value${i}.status); }\n`;
      parts.push(`\`\`\`${langs[i % langs.length]}\n${code.repeat(3)}\`\`\`\n`);
    }
    const doc = parts.join('\n');
    expect(doc.length).toBeGreaterThan(80_000);
    const c = renderMarkdown(doc, { width: 80, color: true });
    const p = renderMarkdown(doc, { width: 80, color: false });
    expect(c).toContain('\x1b[35mconst\x1b[0m');
    expect(p.match(/^## Section \d+$/gm)).toHaveLength(sections);
    expect(p).not.toContain('**');
    // Prose lines respect the width; only (unwrapped) code lines may be longer.
    for (const line of p.split('\n')) if (!line.startsWith('  ')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
