/**
 * The sandbox shows the project wherever it lives: a project under os.tmpdir() (where new users
 * try things, `mktemp -d`) is visible to read-only steps, which run with nothing writable, and a
 * writing step writes the real file. The sandbox's own /tmp is a private tmpfs, laid down before
 * the project is bound. Real bubblewrap through run_command; skipped by name without it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { RunCommandTool } from '../../src/tools/run-command';
import { detectSandbox } from '../../src/tools/sandbox';

const found = process.platform === 'linux' ? await detectSandbox({ mode: 'auto', network: false }) : null;
const sandbox = found?.sandbox ?? null;
const skipped = sandbox ? '' : ` (SKIPPED: ${found?.why ?? 'bubblewrap runs on Linux only'})`;

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'aish-tmp-project-')));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'README.md'), '# under tmp\n');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'x.txt'), 'inside sub\n');
  execFileSync('git', ['init', '-q'], { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  return dir;
}

async function step(dir: string, command: string): Promise<{ content: string; safe: boolean | undefined }> {
  const call = await new RunCommandTool().prepare(JSON.stringify({ command }), { cwd: dir });
  if ('error' in call) throw new Error(call.error);
  const r = await call.run({ cwd: dir, signal: new AbortController().signal, sandbox: sandbox!, unasked: true });
  return { content: r.content, safe: call.gate.safe };
}

describe('a project under the temp directory, in the sandbox', () => {
  it.skipIf(!sandbox)(`read-only steps see it: cat, git status, cd within it${skipped}`, { timeout: 60_000 }, async () => {
    const dir = project();
    expect(dir.startsWith(realpathSync(tmpdir()))).toBe(true);
    const cat = await step(dir, 'cat README.md');
    expect(cat.safe).toBe(true); // runs with nothing writable
    expect(cat.content).toBe('exit code 0\n# under tmp');
    const status = await step(dir, 'git status --porcelain');
    expect(status.safe).toBe(true);
    expect(status.content).toContain('exit code 0');
    expect(status.content).toContain('README.md');
    const cd = await step(dir, 'cd sub && cat x.txt');
    expect(cd.content).toBe('exit code 0\ninside sub');
    // Still read-only: a write from a step the allowlist passed fails.
    const ro = await step(dir, 'test -w README.md && echo writable || echo read-only');
    expect(ro.content).toBe('exit code 0\nread-only');
    // The project's credential files are still hidden: they are covered after it is bound.
    writeFileSync(join(dir, '.env'), 'TOKEN=tmp-project-secret\n');
    expect((await step(dir, 'cat .env; cat sub/../.env')).content).not.toContain('tmp-project-secret');
  });

  it.skipIf(!sandbox)(`a writing step writes the real file there${skipped}`, { timeout: 60_000 }, async () => {
    const dir = project();
    const w = await step(dir, 'echo written > made.txt && cat README.md');
    expect(w.safe).toBe(false);
    expect(w.content).toBe('exit code 0\n# under tmp');
    expect(readFileSync(join(dir, 'made.txt'), 'utf8')).toBe('written\n');
  });
});
