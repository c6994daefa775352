/**
 * The memory verbs, one table for both doors: `:memory …` in the REPL (commands/memory.ts) and
 * `aish memory …` on the command line (frontends/cli/memory-commands.ts) are derived from it. Each
 * verb parses its arguments, calls the memory service (memory/service.ts) and presents the result
 * object — as text in the door's words, or as JSON, which is the same from both doors. What only
 * one verb needs (the plan's words, the receipts') is loaded when that verb runs: `aish memory list`
 * does not pay for plan's.
 */
import type { MemoryService } from '../memory/service';
import { TRUST_VERB } from '../memory/scope-format';
import { MEMORY_KINDS } from '../memory/types';
import { oneLine } from '../util/text';
import { plural } from '../util/time';
import { UsageError } from '../util/errors';
import {
  changed,
  hint,
  info,
  parseId,
  parseKind,
  parseText,
  said,
  unreadableLine,
  value,
  verb,
  warnLine,
  type Args,
  type Line,
  type MemoryVerb,
  type Param,
} from './memory-door';
import { logVerbs } from './memory-log';

/** How the longer results read (./memory-present.ts), loaded by a verb that shows one. */
const present = () => import('./memory-present');

const idParam: Param = { name: 'id', help: 'item id, from aish memory list' };
const textParam = (help: string): Param => ({ name: 'text', help, rest: true });

const completeIds = (m: MemoryService, argv: string[], word: string) =>
  argv.length > 0 ? [] : m.ids('items').filter((id) => id.startsWith(word));

/** `list`'s PAGE, or every item (`--all`). */
function listPage(a: Args): number | 'all' {
  const page = a.words[0];
  if (a.words.length > 1 || (page !== undefined && !/^\d+$/.test(page)))
    throw new UsageError('usage: :memory list [--here] [PAGE | --all]');
  return a.flags.has('--all') ? 'all' : Number(page ?? '1') || 1;
}

function pinVerb(on: boolean): MemoryVerb {
  return verb({
    name: on ? 'pin' : 'unpin',
    args: 'ID',
    params: [idParam],
    help: on ? 'always put this item first in [background]' : `undo :memory pin`,
    complete: completeIds,
    run: (m, a, d) => m.pin(parseId(a.words[0], hint(d)), on, hint(d)),
    text: (r, d) => {
      const notes = r.notes.map((n) =>
        n.kind === 'warn' ? warnLine(d.repl ? n.text : `warning: ${n.text}`) : info(d.repl ? n.text : n.text.replace(/^memory: /, '')),
      );
      const s = changed(r, d);
      return { ...s, lines: [...s.lines, ...notes] };
    },
  });
}

export const MEMORY_VERBS: readonly MemoryVerb[] = [
  verb({
    name: 'add',
    args: '[--project] [--private] KIND TEXT',
    params: [{ name: 'kind', help: 'fact | pref | context' }, textParam('what to remember')],
    flags: [
      { name: '--project', help: 'only for this git repository (or this directory outside git)' },
      { name: '--private', help: 'never leaves this machine (memory sync skips it)' },
    ],
    help: 'remember TEXT; KIND is fact, pref or context (:remember TEXT = add fact);\n--project: only for this git repository (or directory); --private: never synced',
    complete: (_m, argv) =>
      argv.some((a) => a !== '--project' && a !== '--private')
        ? []
        : [...MEMORY_KINDS, ...['--project', '--private'].filter((f) => !argv.includes(f))],
    run: (m, a, d) => {
      const kind = parseKind(a.words[0]);
      const text = parseText(a.text, `usage: ${d.cmd} add [--project] [--private] KIND TEXT`);
      return m.add({
        kind,
        text,
        project: a.flags.has('--project'),
        private: a.flags.has('--private'),
        // An update of an item you have ("uses Node 18" → "uses Node 20"): old and new side by side, then asked.
        // The command line never asks: a script's add is an add.
        ...(d.repl &&
          d.interactive && {
            replace: (old, safe) => {
              const label = `old #${old.id}`;
              d.print(
                info(
                  [
                    `this looks like an update of #${old.id}:`,
                    `  ${label} (${old.kind}): ${oneLine(old.content)}`,
                    `  ${'new'.padEnd(label.length)} (${kind}): ${oneLine(safe)}`,
                  ].join('\n'),
                ),
              );
              return d.ask(`replace #${old.id}?`);
            },
          }),
      });
    },
    text: (r, d) => {
      const full = r.changed && !r.inBackground ? ' — recalled when relevant ([background] is full)' : '';
      return changed({ ...r, text: r.text + full }, d);
    },
  }),
  verb({
    name: 'list',
    args: '[--here] [--json] [PAGE|--all]',
    params: [{ name: 'page', help: 'which screenful', optional: true, door: 'repl' }],
    flags: [
      { name: '--here', help: 'only the items that apply in this directory' },
      { name: '--all', help: 'every item, not a screenful', door: 'repl' },
    ],
    help: 'active items, newest first: id, age, kind, text; * = in [background];\n--here: only those that apply in this directory; a screenful per page',
    run: async (m, a) => ({ listing: await m.list(a.flags.has('--here')), page: listPage(a) }),
    text: async (r, d) => (await present()).listShown(r.listing, r.page, d),
    // The items alone: on the command line streamed through the index, nothing else of a listing read.
    runJson: (m, a) => {
      listPage(a);
      return m.listItems(a.flags.has('--here'));
    },
    json: async (l, d) => (await present()).listJson(l, d),
  }),
  verb({
    name: 'plan',
    args: '[--json] [TEXT]',
    params: [{ ...textParam('the message to plan for'), optional: true }],
    help: 'what would be sent for TEXT (or the last prompt): [background], [recall] with scores,\nand every item left out with its reason (budget, scope, below threshold)',
    run: async (m, a, d) => m.plan(a.text || (await d.lastPrompt())),
    text: async (r, d) => {
      const { formatPlan } = await import('../memory/recall/format-plan');
      // Every item left out is listed by --json; text shows a screenful (the command line: 50).
      const maxLeftOut = d.repl ? Math.max(10, (d.pageLines ?? 30) - 10) : 50;
      const lines = formatPlan(r.plan, { query: r.query, isPinned: r.isPinned, maxLeftOut });
      if (!r.injecting) lines.push('memory is not sent this session (--no-memory)');
      return { lines: [...unreadableLine(d, r.unreadable), { kind: 'rows', text: lines.join('\n') }] };
    },
    json: async (r, d) => {
      const { planJson } = await import('../memory/recall/plan');
      return { lines: unreadableLine(d, r.unreadable), json: value(planJson(r.plan, r.isPinned)) };
    },
  }),
  verb({
    name: 'search',
    args: '[--json] [--limit N] TEXT',
    params: [textParam('what to look for')],
    flags: [{ name: '--limit', value: '<n>', help: 'at most this many (default 20)' }],
    help: 'items ranked for TEXT (any project), with ids and scores',
    run: async (m, a, d) => {
      const raw = a.flags.get('--limit');
      const limit = raw === undefined ? 20 : Number(raw);
      if (!Number.isSafeInteger(limit) || limit < 1) throw new UsageError(`--limit must be a whole number ≥ 1 (got ${String(raw)})`);
      if (!a.text) throw new UsageError(`usage: ${d.cmd} search TEXT`);
      return { ...(await m.search(a.text, limit)), text: a.text };
    },
    text: async (r, d) => {
      const { formatSearch } = await import('../memory/recall/format-plan');
      const found: Line = r.hits.length
        ? { kind: 'rows', text: formatSearch(r.hits, r.isPinned).join('\n') }
        : info(`no memory item matches "${r.text}"`);
      return { lines: [...unreadableLine(d, r.unreadable), found] };
    },
    json: async (r, d) => {
      const { searchJson } = await import('../memory/recall/format-plan');
      return { lines: unreadableLine(d, r.unreadable), json: value(searchJson(r.hits, r.isPinned)) };
    },
  }),
  verb({
    name: 'inject',
    door: 'repl',
    help: 'reload memory.jsonl (after a hand edit) and report unreadable lines',
    run: (m) => m.inject(),
    text: async (r, d) => (await present()).injectShown(r, d),
  }),
  pinVerb(true),
  pinVerb(false),
  verb({
    name: 'forget',
    args: 'ID',
    params: [idParam],
    help: 'forget one item (a tombstone is appended; nothing is rewritten)',
    complete: completeIds,
    run: (m, a, d) => m.forget(parseId(a.words[0], hint(d)), hint(d)),
    text: changed,
  }),
  verb({
    name: 'edit',
    args: 'ID TEXT',
    params: [{ name: 'id', help: 'item id' }, textParam('the new text')],
    help: "replace an item's text (new item + tombstone, one locked write); `(keys: a, b)` at the end sets its search words",
    complete: completeIds,
    run: (m, a, d) => m.edit(parseId(a.words[0], hint(d)), parseText(a.text, `usage: ${d.cmd} edit ID TEXT`), hint(d)),
    text: changed,
  }),
  verb({
    name: 'clear',
    flags: [{ name: '--yes', help: 'confirm', door: 'cli' }],
    help: 'forget every item, after a [y/N] question (Enter keeps them); aish memory clear needs --yes',
    run: (m, a, d) =>
      m.clear(async (n) => {
        if (d.repl) return d.ask(`forget all ${plural(n, 'memory item')}?`);
        if (!a.flags.has('--yes'))
          throw new UsageError(`this would forget all ${plural(n, 'memory item')} — run again with --yes to confirm`);
        return true;
      }),
    text: async (r, d) => said(r, d, (await present()).skippedLines(r, d)),
  }),
  ...logVerbs(),
  verb({
    name: 'sync',
    args: '[--dry-run] [--yes] [--json]',
    flags: [
      { name: '--dry-run', help: 'say what would be sent and received; write nothing' },
      { name: '--yes', help: 'accept a sync that forgets many items without asking' },
    ],
    help: "send this machine's new items to the repository in memory.sync and take the others' (--dry-run: only say what would happen)",
    complete: (_m, argv) => ['--dry-run', '--yes', '--json'].filter((f) => !argv.includes(f)),
    run: async (m, a, d) => {
      const notes: string[] = [];
      const report = await m.sync({
        dryRun: a.flags.has('--dry-run'),
        yes: a.flags.has('--yes'),
        // The command line never asks: a script's add is an add.
        ...(d.repl && d.interactive && { confirm: (q: string) => d.ask(q.replace(/ \[y\/N\] $/, '')) }),
        // By hand it may be the first sync, sending everything: longer than the background's 20 s.
        timeoutMs: 120_000,
        notice: (t) => (d.repl ? notes.push(t) : d.print(warnLine(`warning: ${t}`))),
      });
      return { report, notes };
    },
    text: async (r, d) => (await present()).syncShown(r.report, r.notes, d),
    json: async (r, d) => (await present()).syncJson(r.report, r.notes, d),
  }),
  verb({
    name: 'share',
    args: 'ID',
    params: [idParam],
    help: "write the item to this project's .aish/memory/<name>.jsonl for your team (commit it like code);\nprivate items and secrets are refused",
    run: (m, a, d) => m.share(parseId(a.words[0], hint(d)), hint(d)),
    text: (text, d) => ({ lines: [info(d.repl && text.startsWith('shared') ? `memory: ${text}` : text)] }),
  }),
  verb({
    name: TRUST_VERB,
    args: '[--revoke]',
    flags: [{ name: '--revoke', help: 'no longer: its project items stop applying here' }],
    help: [
      "use this project's items here: the checkout is the project its git remote or .aish/project-id names",
      '(a cloned repository only suggests that name); --revoke: no longer',
    ].join('\n'),
    complete: () => ['--revoke'],
    run: (m, a) => m.trust(a.flags.has('--revoke')),
    text: (text) => ({ lines: [info(text)] }),
  }),
  verb({
    name: 'compact',
    help: 'rewrite the file without forgotten items and tombstones',
    run: (m) => m.compact(),
    text: async (r, d) => said(r, d, (await present()).skippedLines(r, d)),
  }),
  verb({
    name: 'path',
    help: 'where memory.jsonl is',
    run: (m) => Promise.resolve(m.path),
    text: (path) => ({ lines: [info(path)] }),
  }),
];
