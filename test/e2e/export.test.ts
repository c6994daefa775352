/** :export and aish sessions export against the real CLI (issue 14, acceptance 3). */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lexer, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();

const tokens = (md: string): Token[] => new Lexer().lex(md).filter((t) => t.type !== 'space');

describe('export', () => {
  it(':export writes a session with a !cmd and a tool call as Markdown a parser reads back', async () => {
    const home = tmpDir();
    const work = tmpDir();
    writeFileSync(join(work, 'a.txt'), 'one\ntwo\n');
    fake.server.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: '{"command":"wc -l a.txt"}' }] },
      { text: 'The file has **2** lines.' },
    );
    const out = join(work, 'chat.md');
    const input =
      ['!echo shell-said-hi', 'count the lines of a.txt', 'y', `:export ${out}`, `:export ${out}`, ':export', ':quit'].join('\n') + '\n';
    const r = await runAish([], { home, cwd: work, env: fake.env(), input });
    expect(r.stdout).toContain(`exported to ${out}`);
    expect(r.stderr + r.stdout).toMatch(/exists — give another FILE, or --force to replace it/);
    expect(statSync(out).mode & 0o777).toBe(0o600);

    const toks = tokens(readFileSync(out, 'utf8'));
    const headings = toks.filter((t): t is Tokens.Heading => t.type === 'heading').map((h) => `${h.depth} ${h.text}`);
    expect(headings).toEqual(['1 count the lines of a.txt', '2 You', '2 aish']);
    const code = toks.filter((t): t is Tokens.Code => t.type === 'code').map((c) => [c.lang, c.text.trim()]);
    expect(code[0]).toEqual(['text', 'shell-said-hi']);
    expect(code[1]).toEqual(['json', '{\n  "command": "wc -l a.txt"\n}']);
    expect(code[2]![1]).toMatch(/^exit code 0\n2 a\.txt$/);
    expect(toks.some((t) => t.type === 'html' && t.raw.includes('<summary>run_command: wc -l a.txt</summary>'))).toBe(true);
    expect(toks.some((t) => t.type === 'paragraph' && t.raw.includes('The file has **2** lines.'))).toBe(true);

    // Without FILE: under <data dir>/exports/, named after the session, and the path is printed.
    const exports = join(home, '.local', 'share', 'aish', 'exports');
    const [name] = readdirSync(exports);
    expect(r.stdout).toContain(`exported to ~/.local/share/aish/exports/${name}`);
    expect(readFileSync(join(exports, name!), 'utf8')).toBe(readFileSync(out, 'utf8'));

    // The same session from the shell: Markdown to stdout, JSON turns, and a file.
    const session = name!.replace(/\.md$/, '');
    const md = await runAish(['sessions', 'export', session], { home, env: fake.env() });
    expect(md.code).toBe(0);
    expect(md.stdout).toBe(readFileSync(out, 'utf8'));
    const json = await runAish(['sessions', 'export', session, '--format', 'json'], { home, env: fake.env() });
    const turns = JSON.parse(json.stdout) as Array<{ role: string; typed?: string }>;
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(turns[0]!.typed).toBe('count the lines of a.txt');
    const again = await runAish(['sessions', 'export', session, out], { home, env: fake.env() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists — give another FILE, or --force');
    const forced = await runAish(['sessions', 'export', session, out, '--force', '--format', 'json'], { home, env: fake.env() });
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(turns);
    const bad = await runAish(['sessions', 'export', session, '--format', 'html'], { home, env: fake.env() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown format "html" — use md or json');
  });

  it('keeps a !cmd output block sent with a prompt that attaches an @file', async () => {
    const home = tmpDir();
    const work = tmpDir();
    writeFileSync(join(work, 'notes.txt'), 'remember the milk\n');
    const out = join(work, 'f.md');
    const input = ['!echo MARK', 'look at @notes.txt', `:export ${out}`, ':quit'].join('\n') + '\n';
    const r = await runAish([], { home, cwd: work, env: fake.env(), input });
    expect(r.code).toBe(0);
    const [req] = await fake.server.waitForRequests(1);
    expect(JSON.stringify(req!.body.messages)).toContain('remember the milk'); // the file went out with the prompt

    const toks = tokens(readFileSync(out, 'utf8'));
    const paragraphs = toks.filter((t): t is Tokens.Paragraph => t.type === 'paragraph').map((p) => p.text);
    expect(paragraphs).toContain('Ran `!echo MARK` (exit 0):');
    expect(paragraphs).toContain('look at @notes.txt');
    const code = toks.filter((t): t is Tokens.Code => t.type === 'code').map((c) => [c.lang, c.text.trim()]);
    expect(code[0]).toEqual(['text', 'MARK']);
  });
});
