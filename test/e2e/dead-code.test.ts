/**
 * No dead code in src/: knip (configured in knip.json, also `npm run knip`) finds no unused file,
 * export or exported type there. Exports used only by tests count as used.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Unused exports found when this check was added, in folders that were being reworked at the time.
 * The list may only shrink: remove an entry when its export goes (or is used); never add one.
 */
const KNOWN_UNUSED = new Set([
  'src/commands/help.ts subcommandHelp',
  'src/commands/help.ts synopsis',
  'src/commands/memory-review.ts describeCandidate',
  'src/commands/memory.ts completeIds',
  'src/commands/types.ts CommandInput',
  'src/commands/types.ts Need',
  'src/core/capture-schedule.ts PERIODIC_FACTOR',
  'src/core/capture.ts userTurnCount',
  'src/core/engine.ts CHAT_TOOL_ROUNDS',
  'src/core/host.ts OutputKind',
  'src/core/norris.ts NorrisEnd',
  'src/core/resume-view.ts resumeView',
  'src/core/suggest.ts CHOICES_PROMPT',
  'src/core/turn.ts TurnEnd',
  'src/frontends/cli/repl-front.ts SMALL_MEMORY_BYTES',
  'src/frontends/cli/repl-front.ts initialStatus',
  'src/frontends/cli/repl-front.ts smallMemory',
  'src/frontends/repl/clusters.ts clusterAt',
  'src/frontends/repl/frame-cache.ts FileMark',
  'src/frontends/repl/frame-cache.ts FrameEntry',
  'src/frontends/repl/frame-cache.ts markFiles',
  'src/frontends/repl/highlight.ts guessLanguages',
  'src/frontends/repl/highlight.ts hljsHtmlToLines',
  'src/frontends/repl/job-control.ts processTerminal',
  'src/frontends/repl/reverse-search.ts searchFor',
  'src/frontends/repl/reverse-search.ts searchOlder',
  'src/frontends/repl/store.ts FRAME_MS',
  'src/frontends/repl/terminal-size.ts CLEAR_ALL',
  'src/memory/capture-prompt.ts CAPTURE_TRANSCRIPT_LIMIT',
  'src/memory/capture-source.ts QUOTE_CHARS',
  'src/memory/inbox-types.ts CandidateSource',
  'src/memory/inbox.ts parseInbox',
  'src/memory/ingest.ts ingestFresh',
  'src/memory/plan.ts LeftOutReason',
  'src/memory/project.ts insideScope',
  'src/memory/raw-lines.ts InvalidSpan',
  'src/memory/recall-index.ts B',
  'src/memory/recall-index.ts K1',
  'src/memory/recall-index.ts RECENCY_FLOOR',
  'src/memory/recall-postings.ts MAX_FREQ',
  'src/memory/recall-rank.ts B',
  'src/memory/recall-rank.ts K1',
  'src/memory/recall-rank.ts RECENCY_FLOOR',
  'src/memory/recall-service.ts recallDoc',
  'src/memory/recall.ts RELATIVE_CUT',
  'src/memory/secrets.ts entropy',
  'src/memory/summarize.ts SUMMARIZE_INSTRUCTION',
  'src/memory/summarize.ts TRANSCRIPT_LIMIT',
  'src/memory/transfer.ts EXPORT_FORMAT',
  'src/memory/transfer.ts scopeLabel',
]);

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
  it('src/ has no unused file, export or exported type beyond the known list', async () => {
    const found = await knip();
    expect(found.filter((f) => !KNOWN_UNUSED.has(f))).toEqual([]);
  });
});
