// Terminal renderer for finished model answers. Pure function module (no Ink/React) so it can
// be lazy-loaded with `await import()` the first time an answer completes.
//
// Pipeline: marked's lexer → our own walk over the token tree producing lines of styled runs
// (text + numeric style) → one ANSI string per line. Working on runs rather than on strings
// with embedded escape codes makes wrapping width-exact and lets every line re-open and reset
// its own styles, so nothing bleeds across lines when Ink lays them out.
import { Lexer, type Token } from 'marked';
import { stripControls } from '../../util/text';
import { appendSpan, columns, wrapSpans as wrap } from '../../util/width';
import { BOLD, DIM, ITALIC, STRIKE, UNDERLINE, expandTabs, fg, highlightLines, mergeStyle, serializeLine, type Run } from './highlight';
import { decodeEntities } from './markdown-entities';

export { highlightCode } from './highlight';

export interface RenderOptions {
  /** terminal columns */
  width: number;
  /** false → plain text, no escape codes at all */
  color: boolean;
}

type Line = Run[];
interface Ctx {
  color: boolean;
  /** Floor for nested column widths: MIN_WIDTH, or the terminal width if that is smaller. */
  minWidth: number;
  /** Bytes of unlabeled code we may still auto-detect (~20 ms/KB with several candidate
   *  languages), so an answer full of unlabeled fences can't dominate render time. */
  auto: { left: number };
}
/** Tokens are walked structurally; treating them as loose records keeps us robust to token
 *  shapes marked adds later (and to extension tokens) instead of trusting the union type. */
type Tok = Token & Record<string, unknown>;

const CODE_INLINE = fg(33);
const LINK = mergeStyle(UNDERLINE, fg(34));
const MUTED = fg(90);
const MARKER = fg(36);
const HEADING = [BOLD, BOLD | UNDERLINE | fg(36), BOLD | fg(36)];
const BULLETS = ['•', '◦', '▪'];
const MIN_WIDTH = 10; // deeply nested content still gets a usable column
const AUTO_BUDGET = 8 * 1024;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A child token list, or none: marked leaves `tokens` out on leaf tokens. */
const toks = (v: unknown): readonly Tok[] => (Array.isArray(v) ? (v as Tok[]) : []);

const runsWidth = (runs: readonly Run[]): number => runs.reduce((w, r) => w + columns(r.text), 0);
const plainText = (runs: readonly Run[]): string => runs.map((r) => r.text).join('');

/** Prepend runs to a line, merging same-style neighbours so nested indentation doesn't grow
 *  the run count (deep nesting would otherwise cost cubic time). */
function prefix(pre: readonly Run[], l: Line): Line {
  const out: Line = [];
  for (const r of pre) appendSpan(out, r);
  for (const r of l) appendSpan(out, r);
  return out;
}

// ---- inline ------------------------------------------------------------------------------
function inline(tokens: unknown, style: number, ctx: Ctx, out: Run[]): Run[] {
  for (const t of toks(tokens)) {
    switch (t.type) {
      case 'text':
        if (Array.isArray(t.tokens) && t.tokens.length > 0) inline(t.tokens, style, ctx, out);
        else out.push({ text: decodeEntities(str(t.text)).replace(/\n/g, ' '), style });
        break;
      case 'escape':
        out.push({ text: str(t.text), style });
        break;
      case 'strong':
        inline(t.tokens, mergeStyle(style, BOLD), ctx, out);
        break;
      case 'em':
        inline(t.tokens, mergeStyle(style, ITALIC), ctx, out);
        break;
      case 'del':
        inline(t.tokens, mergeStyle(style, STRIKE), ctx, out);
        break;
      case 'codespan': {
        const code = str(t.text).replace(/\n/g, ' ');
        // Without colour the backticks are the only thing that marks code.
        out.push(ctx.color ? { text: code, style: mergeStyle(style, CODE_INLINE) } : { text: `\`${code}\``, style });
        break;
      }
      case 'br':
        out.push({ text: '\n', style: 0 });
        break;
      case 'link':
      case 'image': {
        const linkStyle = mergeStyle(style, LINK);
        const label =
          t.type === 'image'
            ? [{ text: `[image${t.text ? `: ${decodeEntities(str(t.text))}` : ''}]`, style: linkStyle }]
            : inline(t.tokens, linkStyle, ctx, []);
        const text = plainText(label);
        // Autolinks (and GFM bare URLs) are literal; explicit destinations may hold entities.
        const href = t.autolink ? str(t.href) : decodeEntities(str(t.href));
        for (const r of label) out.push(r);
        if (href && href !== text && href !== `mailto:${text}`) {
          out.push({ text: ` (${href})`, style: mergeStyle(style, MUTED) });
        }
        break;
      }
      case 'checkbox': // drawn as part of the list marker
        break;
      case 'html': // inline tags are shown as written
        out.push({ text: str(t.text).replace(/\n/g, ' '), style });
        break;
      default:
        if (Array.isArray(t.tokens)) inline(t.tokens, style, ctx, out);
        else out.push({ text: str(t.text ?? t.raw).replace(/\n/g, ' '), style });
    }
  }
  return out;
}

// ---- blocks ------------------------------------------------------------------------------
/** Render a block sequence; loose sequences get a blank line between blocks, tight ones don't. */
function blocks(tokens: unknown, width: number, ctx: Ctx, tight: boolean, depth: number): Line[] {
  const out: Line[] = [];
  for (const t of toks(tokens)) {
    const lines = block(t, Math.max(ctx.minWidth, width), ctx, depth);
    if (!lines) continue;
    if (out.length > 0 && !tight) out.push([]);
    for (const l of lines) out.push(l); // no spread: huge arrays would overflow the call stack
  }
  return out;
}

function block(t: Tok, width: number, ctx: Ctx, depth: number): Line[] | null {
  switch (t.type) {
    case 'space':
    case 'def':
    case 'checkbox':
      return null;
    case 'heading': {
      const st = HEADING[Number(t.depth)] ?? BOLD;
      const marks: Run = { text: `${'#'.repeat(Math.min(6, Math.max(1, Number(t.depth) || 1)))} `, style: st & ~UNDERLINE };
      return wrap(inline(t.tokens, st, ctx, [marks]), width);
    }
    case 'paragraph':
    case 'text':
      return wrap(Array.isArray(t.tokens) ? inline(t.tokens, 0, ctx, []) : [{ text: decodeEntities(str(t.text)), style: 0 }], width);
    case 'code':
      return codeBlock(str(t.text), str(t.lang).trim().split(/\s+/)[0] || undefined, ctx, t.codeBlockStyle !== 'indented');
    case 'blockquote': {
      const inner = blocks(t.tokens, width - 2, ctx, false, depth);
      if (inner.length === 0) inner.push([]);
      return inner.map((l) =>
        prefix(
          [{ text: l.length ? '│ ' : '│', style: MUTED }],
          l.map((r) => ({ text: r.text, style: mergeStyle(DIM, r.style) })),
        ),
      );
    }
    case 'list':
      return list(t, width, ctx, depth);
    case 'table':
      return table(t, width, ctx);
    case 'hr':
      return [[{ text: '─'.repeat(Math.min(width, 40)), style: MUTED }]];
    case 'html':
      return wrap([{ text: str(t.text).replace(/\n+$/, ''), style: 0 }], width);
    default:
      if (Array.isArray(t.tokens)) return wrap(inline(t.tokens, 0, ctx, []), width);
      return str(t.text ?? t.raw) ? wrap([{ text: str(t.text ?? t.raw), style: 0 }], width) : null;
  }
}

/**
 * Code is never wrapped (wrapping would corrupt it); each line is indented two spaces. A fenced
 * block keeps its fences and language label (dimmed), so where code starts and ends stays visible
 * and what is copied from the screen is still Markdown.
 */
function codeBlock(text: string, lang: string | undefined, ctx: Ctx, fenced: boolean): Line[] {
  let lines: Line[];
  if (ctx.color) {
    lines = highlightLines(text, lang, ctx.auto);
  } else {
    lines = text.split('\n').map((l) => [{ text: expandTabs(l), style: 0 }]);
  }
  const body = lines.map((l) => (l.some((r) => r.text) ? prefix([{ text: '  ', style: 0 }], l) : []));
  if (!fenced) return body;
  const fence = (label: string): Line => [{ text: `\`\`\`${label}`, style: MUTED }];
  return [fence(lang ?? ''), ...body, fence('')];
}

function list(t: Tok, width: number, ctx: Ctx, depth: number): Line[] {
  const items = toks(t.items);
  const start = typeof t.start === 'number' ? t.start : 1;
  const numWidth = String(start + Math.max(0, items.length - 1)).length + 1;
  const out: Line[] = [];
  items.forEach((item, i) => {
    const marker: Run[] = [
      t.ordered
        ? { text: `${start + i}.`.padStart(numWidth), style: MARKER }
        : { text: BULLETS[depth % BULLETS.length] ?? '•', style: MARKER },
    ];
    if (item.task) {
      // GitHub-style: a task item's checkbox replaces the bullet (but follows a number).
      const box = { text: item.checked ? '[x]' : '[ ]', style: item.checked ? fg(32) : MUTED };
      if (t.ordered) marker.push({ text: ' ', style: 0 }, box);
      else marker[0] = box;
    }
    const indent = runsWidth(marker) + 1;
    const body = blocks(item.tokens, width - indent, ctx, !t.loose, depth + 1);
    if (out.length > 0 && t.loose) out.push([]);
    if (body.length === 0) body.push([]);
    body.forEach((l, j) => {
      if (j === 0) out.push(prefix([...marker, { text: ' ', style: 0 }], l));
      else out.push(l.length ? prefix([{ text: ' '.repeat(indent), style: 0 }], l) : []);
    });
  });
  return out;
}

type Align = 'left' | 'right' | 'center' | null | undefined;
function pad(cell: Run[], w: number, align: Align, last: boolean): Run[] {
  const gap = w - runsWidth(cell);
  if (gap <= 0) return cell;
  const left = align === 'right' ? gap : align === 'center' ? gap >> 1 : 0;
  const out: Run[] = left ? [{ text: ' '.repeat(left), style: 0 }, ...cell] : [...cell];
  if (!last) out.push({ text: ' '.repeat(gap - left), style: 0 }); // no trailing blanks
  return out;
}

/** Grid when it fits; otherwise one `header: value` line per cell, rows separated by blanks. */
function table(t: Tok, width: number, ctx: Ctx): Line[] {
  const cell = (c: Tok | undefined, style: number): Run[] =>
    inline(c?.tokens, style, ctx, []).map((r) => ({ text: r.text.replace(/\n/g, ' '), style: r.style }));
  const header: Tok[] = Array.isArray(t.header) ? (t.header as Tok[]) : [];
  const head = header.map((c) => cell(c, BOLD));
  const rows = (Array.isArray(t.rows) ? (t.rows as Tok[][]) : []).map((r) => header.map((_, i) => cell(r[i], 0)));
  const widths = head.map((h) => Math.max(1, runsWidth(h)));
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 1, runsWidth(c));
    });
  const total = widths.reduce((a, b) => a + b, 0) + 3 * Math.max(0, widths.length - 1);
  const sep: Run = { text: ' │ ', style: MUTED };
  if (total <= width) {
    const row = (cells: Run[][]): Line => {
      const line: Line = [];
      cells.forEach((c, i) => {
        if (i > 0) line.push(sep);
        line.push(...pad(c, widths[i] ?? 0, (header[i]?.align as Align) ?? null, i === cells.length - 1));
      });
      return line;
    };
    const rule: Line = [{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: MUTED }];
    return [row(head), rule, ...rows.map(row)];
  }
  const out: Line[] = [];
  for (const r of rows) {
    if (out.length > 0) out.push([]);
    r.forEach((c, i) => {
      const label = plainText(head[i] ?? []) || `col${i + 1}`;
      for (const l of wrap([{ text: `${label}:`, style: BOLD }, { text: ' ', style: 0 }, ...c], width)) out.push(l);
    });
  }
  return out;
}

// ---- entry point -------------------------------------------------------------------------
/** Render Markdown for the terminal. Never throws: on any failure the (sanitized) source is
 *  returned as-is, which is still readable. */
export function renderMarkdown(markdown: string, opts: RenderOptions): string {
  let src = '';
  try {
    src = stripControls(String(markdown ?? ''));
    const w = Number(opts?.width);
    const width = Number.isFinite(w) && w >= 1 ? Math.floor(w) : 80;
    const ctx: Ctx = { color: Boolean(opts?.color), minWidth: Math.min(MIN_WIDTH, width), auto: { left: AUTO_BUDGET } };
    // A fresh options object per call: the global `marked` defaults may be changed elsewhere.
    // `breaks`: a line break in a paragraph stays a line break. Markdown would join the lines into
    // one, but in a terminal the answer's lines were on screen as they streamed, and a list of
    // `Line 1`, `Line 2`… (or a poem, an address) must not become one paragraph when it ends.
    const tokens = Lexer.lex(src, { gfm: true, breaks: true }) as Tok[];
    const lines = blocks(tokens, width, ctx, false, 0);
    const out = lines.map((l) => serializeLine(l, ctx.color));
    while (out.length > 0 && out[out.length - 1] === '') out.pop();
    return out.join('\n');
  } catch {
    return src.replace(/\s+$/, '');
  }
}
