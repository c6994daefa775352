/**
 * The after-the-fact check through the built CLI with a person to ask (plain mode, answers on
 * stdin): a Norris step that looked harmless overwrote a file; it is put back at once, and
 * `keep these changes? [y/N]` decides. Needs a sandbox (without one the step would ask before it
 * runs, and an approved step is not judged); skipped by name without bubblewrap.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSandbox } from '../../src/tools/sandbox';
import { useFakeOpenAI } from '../helpers/fake-server-suite';
import { runAish } from '../helpers/run-cli';
import { tmpDir } from '../helpers/tmp';

const fake = useFakeOpenAI();
const found = process.platform === 'linux' ? await detectSandbox({ mode: 'auto', network: false }) : null;
const skipped = found?.sandbox ? '' : ` (SKIPPED: ${found?.why ?? 'bubblewrap runs on Linux only'})`;

function project(): { home: string; work: string } {
  const home = tmpDir('aish-keep-');
  const work = join(home, 'work');
  mkdirSync(join(work, 'victim'), { recursive: true });
  writeFileSync(join(work, 'data.json'), '{"a": 1}\n');
  writeFileSync(join(work, 'victim', 'keep'), 'precious\n');
  execFileSync('git', ['init', '-q'], { cwd: work });
  return { home, work };
}

async function norrisStep(answer: string, command: string) {
  const { home, work } = project();
  fake.server.enqueue({ toolCalls: [{ name: 'run_command', arguments: JSON.stringify({ command }) }] }, { text: 'Done.' });
  const r = await runAish([], { home, cwd: work, env: fake.env(), input: `:norris tidy up\n${answer}\n`, timeoutMs: 60_000 });
  const toolResult = fake.server.requests.at(-1)!.body.messages.find((m) => m.role === 'tool')?.content ?? '';
  return { r, work, toolResult };
}

describe(`keep these changes? [y/N], through the CLI${skipped}`, () => {
  it.skipIf(!found?.sandbox)('Enter: the overwrite stays put back and the model is told', { timeout: 90_000 }, async () => {
    const { r, work, toolResult } = await norrisStep('', 'python3 -m json.tool data.json victim/keep');
    expect(r.stdout + r.stderr).toContain('put back: a step nobody approved changed files that existed before it: victim/keep (changed)');
    expect(r.stdout + r.stderr).toContain('keep these changes? [y/N]');
    expect(readFileSync(join(work, 'victim', 'keep'), 'utf8')).toBe('precious\n');
    expect(toolResult).toMatch(/^Not kept: .*the user chose not to keep them/);
  });

  it.skipIf(!found?.sandbox)('y: the step’s result is put in place again, a planted .npmrc too', { timeout: 90_000 }, async () => {
    const a = await norrisStep('y', 'python3 -m json.tool data.json victim/keep');
    expect(readFileSync(join(a.work, 'victim', 'keep'), 'utf8')).toBe('{\n    "a": 1\n}\n');
    expect(a.toolResult).toMatch(/^exit code 0/);
    const b = await norrisStep('n', 'npm config set script-shell ./evil.sh --location=project');
    expect(b.r.stdout + b.r.stderr).toContain('.npmrc (created, configures programs)');
    expect(existsSync(join(b.work, '.npmrc'))).toBe(false);
  });
});
