import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { shellNote } from '../../src/core/user-shell';
import { exportTitle, renderJson, renderMarkdown } from '../../src/sessions/export';
import { fenced } from '../../src/util/fence';
import { defaultExportPath, exportSession, writeExport } from '../../src/sessions/export-file';
import type { Turn } from '../../src/sessions/types';
import { HeadTail } from '../../src/tools/shell';
import { tmpDir } from '../helpers/tmp';

function note(cmd: string, output: string): string {
  const h = new HeadTail(16 * 1024);
  h.push(output);
  return shellNote(cmd, 'exit 0', h);
}

const ts = '2025-01-02T03:04:05.000Z';
/** A session with a `!cmd` sent with the first prompt and a tool call in the answer. */
const turns: Turn[] = [
  { ts, role: 'user', content: `${note('git status --short', ' M README.md\n?? notes.txt\n')}\n\nwhat changed?`, typed: 'what changed?' },
  {
    ts,
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"git diff --stat"}' } }],
  },
  { ts, role: 'tool', tool_call_id: 'call_1', content: ' README.md | 2 +-\n 1 file changed' },
  { ts, role: 'assistant', content: 'You edited **README.md** and added an untracked file.' },
  { ts, role: 'assistant', content: '- fact: x', meta: 'summarize' },
  { ts, role: 'user', content: 'thanks' },
  { ts, role: 'assistant', content: null, meta: 'error' },
];

const tokens = (md: string): Token[] => new Lexer().lex(md).filter((t) => t.type !== 'space');

describe('renderMarkdown', () => {
  it('reads back with a Markdown parser: headings, the !cmd output and the tool call as code', () => {
    const toks = tokens(renderMarkdown({ name: '20250102-030405-1', turns }));
    const headings = toks.filter((t): t is Tokens.Heading => t.type === 'heading').map((h) => `${'#'.repeat(h.depth)} ${h.text}`);
    expect(headings).toEqual(['# what changed?', '## You', '## aish', '## You', '## aish']);
    const code = toks.filter((t): t is Tokens.Code => t.type === 'code').map((c) => [c.lang, c.text]);
    expect(code).toEqual([
      ['text', ' M README.md\n?? notes.txt'],
      ['json', '{\n  "command": "git diff --stat"\n}'],
      ['', ' README.md | 2 +-\n 1 file changed'],
    ]);
    const html = toks.filter((t) => t.type === 'html').map((t) => t.raw.trim());
    expect(html).toEqual(['<details>\n<summary>run_command: git diff --stat</summary>', '</details>']);
    const text = toks.map((t) => t.raw).join('');
    expect(text).toContain('You edited **README.md**');
    expect(text).not.toContain('fact: x'); // memory extraction is not conversation
    expect(text).toContain('_(the model call failed)_');
    expect(text).toContain('Ran `!git status --short` (exit 0):');
    // The !cmd output is shown once, as code, not again as part of the prompt.
    expect(text.match(/notes\.txt/g)).toHaveLength(1);
  });

  it('shows a !cmd that printed nothing beside one that printed, and neither inside the prompt', () => {
    const content = [note('mkdir x', ''), note('ls', 'x\n'), note('true', '')].join('\n\n') + '\n\nnow what?';
    const md = renderMarkdown({ name: 'n', turns: [{ ts, role: 'user', content, typed: 'now what?' }] });
    expect(md).toContain('Ran `!mkdir x` (exit 0): none, it printed nothing.');
    expect(md).toContain('Ran `!true` (exit 0): none, it printed nothing.');
    expect(md).toContain('Ran `!ls` (exit 0):');
    expect(md).not.toContain('Output of a shell command');
    const code = tokens(md).filter((t): t is Tokens.Code => t.type === 'code');
    expect(code.map((c) => c.text)).toEqual(['x']);
  });

  it('titles with the digest title, else the first prompt, else the name', () => {
    expect(exportTitle({ name: 'n', turns, title: 'Reviewing the diff' })).toBe('Reviewing the diff');
    expect(exportTitle({ name: 'n', turns })).toBe('what changed?');
    expect(exportTitle({ name: 'n', turns: [] })).toBe('n');
  });

  it('escapes the summary and fences output that holds backticks', () => {
    const md = renderMarkdown({
      name: 'n',
      turns: [
        { ts, role: 'user', content: 'go' },
        {
          ts,
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'run_command', arguments: '{"command":"echo </summary><b>"}' } }],
        },
        { ts, role: 'tool', tool_call_id: 'c', content: '```\nnot a fence end\n```' },
      ],
    });
    expect(md).toContain('<summary>run_command: echo &lt;/summary&gt;&lt;b&gt;</summary>');
    const code = tokens(md).filter((t): t is Tokens.Code => t.type === 'code');
    expect(code.at(-1)!.text).toBe('```\nnot a fence end\n```');
    expect(fenced('a ```` b')).toBe('`````\na ```` b\n`````');
  });
});

describe('export files', () => {
  const log = () => {
    const dir = tmpDir();
    const path = join(dir, 's1.jsonl');
    writeFileSync(
      path,
      [
        JSON.stringify({ meta: { id: 's1', started: ts, version: 1 } }),
        ...turns.map((t) => JSON.stringify(t)),
        JSON.stringify({ meta: { digest: { ts, title: 'Reviewing the diff' } } }),
      ].join('\n') + '\n',
    );
    return { dir, path };
  };

  it('json is the turns as an array; md takes the digest title', () => {
    const { path } = log();
    expect(JSON.parse(exportSession(path, 's1', 'json'))).toEqual(turns);
    expect(JSON.parse(renderJson(turns))).toEqual(turns);
    expect(exportSession(path, 's1', 'md').split('\n')[0]).toBe('# Reviewing the diff');
    expect(exportSession(path, 's1', 'md', 'Newer title').split('\n')[0]).toBe('# Newer title');
  });

  it('writes 0600, refuses an existing file unless forced', () => {
    const { dir } = log();
    const file = join(dir, 'out.md');
    expect(writeExport(file, 'one', { force: false })).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() => writeExport(file, 'two', { force: false })).toThrow(/exists — give another FILE, or --force to replace it/);
    chmodSync(file, 0o644);
    writeExport(file, 'two', { force: true });
    expect(readFileSync(file, 'utf8')).toBe('two');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('the default path is under <data dir>/exports, created private', () => {
    const { dir } = log();
    mkdirSync(join(dir, 'data'));
    const p = defaultExportPath(join(dir, 'data'), 's1', 'md');
    expect(p).toBe(join(dir, 'data', 'exports', 's1.md'));
    writeExport(p, 'x', { force: true, mkdir: true });
    expect(statSync(join(dir, 'data', 'exports')).mode & 0o777).toBe(0o700);
  });
});
