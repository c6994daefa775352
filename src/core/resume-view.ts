/**
 * What a resume and a start say on screen. A resumed conversation: its last exchanges, as many as fit in a
 * screenful, the older ones summed up as `… 12 earlier turns`. Turns are counted as everywhere
 * else (`:sessions`, `aish sessions list`): the user's prompts.
 */
import type { ResolvedPreset } from '../broker/presets';
import type { ResumedSession } from '../sessions/recorder';
import type { Turn } from '../sessions/types';
import { exampleConfigHint, newConfigHint } from '../config/example';
import { plural } from '../util/time';
import { tildify } from '../util/paths';
import type { OutputItem } from './host';

/** One exchange: the prompt and what was shown as its answers. */
function exchanges(turns: readonly Turn[]): OutputItem[][] {
  const out: OutputItem[][] = [];
  for (const t of turns) {
    if (t.role === 'user') out.push([{ kind: 'user', text: t.typed ?? t.content ?? '' }]);
    else if (t.role === 'assistant' && typeof t.content === 'string' && t.content.trim() && t.meta !== 'error' && t.meta !== 'summarize') {
      out.at(-1)?.push({ kind: 'assistant', text: closeFence(t.content), markdown: true });
    }
  }
  return out;
}

const MARKER = '[interrupted by the user]';

/**
 * An answer cut off inside a code block was logged with the marker after it, still inside the
 * block: the block is closed before the marker, so the marker shows as text, not as code.
 */
function closeFence(text: string): string {
  if (!text.endsWith(MARKER)) return text;
  const body = text.slice(0, -MARKER.length).replace(/\s+$/, '');
  let open: string | null = null;
  for (const line of body.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const mark = m[1]!;
    if (open === null) {
      if (!(mark[0] === '`' && m[2]!.includes('`'))) open = mark; // a backtick fence's info has no backtick
    } else if (mark[0] === open[0] && mark.length >= open.length && m[2]!.trim() === '') open = null;
  }
  return open === null ? text : `${body}\n${open}\n\n${MARKER}`;
}

const height = (items: readonly OutputItem[]) => items.reduce((n, i) => n + i.text.split('\n').length + 1, 0);

/** The last exchanges within `lines` (at least the last one, its answer cut to fit). */
function resumeView(turns: readonly Turn[], lines: number): OutputItem[] {
  const all = exchanges(turns);
  if (all.length === 0) return [];
  const shown: OutputItem[][] = [];
  let used = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const h = height(all[i]!);
    if (shown.length > 0 && used + h > lines) break;
    shown.unshift(all[i]!);
    used += h;
  }
  if (used > lines && shown.length === 1)
    shown[0] = shown[0]!.map((item) => (item.kind === 'assistant' ? { ...item, text: cutLines(item.text, Math.max(3, lines - 3)) } : item));
  const earlier = all.length - shown.length;
  return [...(earlier > 0 ? [{ kind: 'info' as const, text: `… ${plural(earlier, 'earlier turn')}` }] : []), ...shown.flat()];
}

function cutLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length <= n ? text : `${lines.slice(0, n).join('\n')}\n…`;
}

/**
 * What a resume prints: damaged lines skipped, the last exchanges (when `lines` > 0: a person is
 * watching), and `resumed NAME: N turns — title`.
 */
export function resumedOutput(r: ResumedSession, lines: number): { items: OutputItem[]; turns: number } {
  const turns = r.turns.filter((t) => t.role === 'user').length;
  return {
    turns,
    items: [
      ...r.warnings.map((w): OutputItem => ({ kind: 'warn', text: w })),
      ...(lines > 0 ? resumeView(r.turns, lines) : []),
      { kind: 'info', text: `resumed ${r.name}: ${plural(turns, 'turn')}${r.digest?.title ? ` — ${r.digest.title}` : ''}` },
    ],
  };
}

/** Said at start when the active preset has no key (the first prompt would fail): what to do. */
export function welcomeLine(
  p: Pick<ResolvedPreset, 'apiKey' | 'baseURL'>,
  config: { path: string | null; defaultPath: string },
): string | null {
  if (p.apiKey) return null;
  const presets = config.path
    ? `presets go in ${tildify(config.path)} (${exampleConfigHint()})`
    : `for presets, ${newConfigHint(config.defaultPath)}`;
  return `welcome to aish — no API key for ${p.baseURL}: export OPENAI_API_KEY=sk-…, or use a local server (OPENAI_BASE_URL=http://localhost:11434/v1 for Ollama); ${presets}`;
}
