/**
 * No dead code in src/: knip (configured in knip.json, also `npm run knip`) finds no unused file,
 * export or exported type there. Exports used only by tests count as used.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface KnipIssue {
  file: string;
  files?: unknown[];
  [kind: string]: unknown;
}

/** Each finding in src/ as `FILE NAME` (`FILE (file)` for an unused file). */
function knip(): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      join(root, 'node_modules', '.bin', 'knip'),
      ['--reporter', 'json'],
      { cwd: root, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        let report: { issues: KnipIssue[] };
        try {
          report = JSON.parse(stdout) as { issues: KnipIssue[] };
        } catch {
          reject(new Error(`knip gave no report (${err?.message ?? 'exit 0'}): ${stdout}${stderr}`));
          return;
        }
        const found: string[] = [];
        for (const issue of report.issues.filter((i) => i.file.startsWith('src/'))) {
          if (issue.files?.length) found.push(`${issue.file} (file)`);
          for (const kind of ['exports', 'types', 'enumMembers', 'namespaceMembers', 'duplicates']) {
            const list = (issue[kind] ?? []) as Array<{ name: string } | Array<{ name: string }>>;
            for (const e of list) found.push(`${issue.file} ${Array.isArray(e) ? e.map((x) => x.name).join('|') : e.name}`);
          }
        }
        resolve(found.sort());
      },
    );
  });
}

describe('dead code', () => {
  it('src/ has no unused file, export or exported type', async () => {
    expect(await knip()).toEqual([]);
  });
});
