/**
 * A small terminal emulator for PTY tests: what a user would see, screen and scrollback, instead of
 * the raw byte stream. It implements what Ink and aish write (printing with autowrap and the
 * pending-wrap column, CR/LF/BS, cursor moves, erase in line/display, scrollback clear) and, like
 * xterm.js, tmux and most terminals today, re-wraps soft-wrapped lines on resize. Character widths
 * come from string-width, the width Ink uses; escape sequences it does not know are skipped.
 */
import stringWidth from 'string-width';

interface Row {
  /** One entry per column: a grapheme cluster, '' for the right half of a wide one, ' ' blank. */
  cells: string[];
  /** Continues the row above (the terminal wrapped it, not a newline). */
  wrapped: boolean;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export class Screen {
  private rows: Row[] = [];
  /** Cursor column; `cols` means "after the last column" (the next character wraps first). */
  private cx = 0;
  /** Cursor row on the screen (0 = top of the visible screen). */
  private cy = 0;
  private pending = '';

  constructor(
    public cols: number,
    public height: number,
  ) {
    for (let i = 0; i < height; i++) this.rows.push(this.blank());
  }

  private blank(wrapped = false): Row {
    return { cells: Array<string>(this.cols).fill(' '), wrapped };
  }

  private get top(): number {
    return this.rows.length - this.height;
  }

  private row(y = this.cy): Row {
    return this.rows[this.top + y]!;
  }

  private lineFeed(wrapped = false): void {
    if (this.cy === this.height - 1) this.rows.push(this.blank(wrapped));
    else {
      this.cy++;
      if (wrapped) this.row().wrapped = true;
    }
  }

  private print(g: string): void {
    const w = stringWidth(g);
    if (w === 0) {
      // A combining mark or joiner that the segmenter left alone: part of the cell before.
      const r = this.row();
      const x = Math.max(0, Math.min(this.cx, this.cols) - 1);
      r.cells[x] += g;
      return;
    }
    if (this.cx + w > this.cols) {
      if (this.cx < this.cols) this.row().cells.fill('', this.cx); // a wide character does not straddle
      this.cx = 0;
      this.lineFeed(true);
    }
    const r = this.row();
    r.cells[this.cx] = g;
    if (w === 2 && this.cx + 1 < this.cols) r.cells[this.cx + 1] = '';
    this.cx += w;
  }

  write(data: string): void {
    const s = this.pending + data;
    this.pending = '';
    let i = 0;
    let text = '';
    const flushText = () => {
      if (!text) return;
      for (const { segment } of segmenter.segment(text)) this.print(segment);
      text = '';
    };
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\x1b') {
        flushText();
        const m = /^\x1b(?:\[([0-?]*)[ -/]*([@-~])|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[@-Z\\-_]|[0-9=>])/.exec(
          s.slice(i, i + 256),
        );
        if (!m) {
          // An escape split across two chunks: wait for the rest.
          if (s.length - i < 256) this.pending = s.slice(i);
          else i++;
          if (this.pending) break;
          continue;
        }
        if (m[2] !== undefined) this.csi(m[1] ?? '', m[2]);
        i += m[0].length;
        continue;
      }
      if (c < ' ' || c === '\x7f') {
        flushText();
        if (c === '\r') this.cx = 0;
        else if (c === '\n') {
          this.cx = Math.min(this.cx, this.cols - 1);
          this.lineFeed();
        } else if (c === '\b') this.cx = Math.max(0, Math.min(this.cx, this.cols) - 1);
        else if (c === '\t') this.cx = Math.min(this.cols - 1, (Math.floor(this.cx / 8) + 1) * 8);
        i++;
        continue;
      }
      text += c;
      i++;
    }
    flushText();
  }

  /** Inside a synchronized update (`CSI ?2026h` … `l`): the frame on screen is half drawn. */
  syncing = false;

  private csi(params: string, final: string): void {
    if (params === '?2026' && (final === 'h' || final === 'l')) this.syncing = final === 'h';
    if (params.startsWith('?') || params.startsWith('>') || params.startsWith('<') || params.startsWith('=')) return;
    const ps = params.split(';').map((p) => (p === '' ? NaN : Number(p)));
    const n = Number.isNaN(ps[0]!) ? 1 : Math.max(1, ps[0]!);
    const p0 = Number.isNaN(ps[0]!) ? 0 : ps[0]!;
    const x = Math.min(this.cx, this.cols - 1);
    switch (final) {
      case 'A':
        this.cy = Math.max(0, this.cy - n);
        this.cx = x;
        break;
      case 'B':
        this.cy = Math.min(this.height - 1, this.cy + n);
        this.cx = x;
        break;
      case 'C':
        this.cx = Math.min(this.cols - 1, x + n);
        break;
      case 'D':
        this.cx = Math.max(0, x - n);
        break;
      case 'E':
        this.cy = Math.min(this.height - 1, this.cy + n);
        this.cx = 0;
        break;
      case 'F':
        this.cy = Math.max(0, this.cy - n);
        this.cx = 0;
        break;
      case 'G':
        this.cx = Math.min(this.cols - 1, n - 1);
        break;
      case 'H':
      case 'f':
        this.cy = Math.min(this.height - 1, n - 1);
        this.cx = Math.min(this.cols - 1, (Number.isNaN(ps[1] ?? NaN) ? 1 : Math.max(1, ps[1]!)) - 1);
        break;
      case 'K': {
        const r = this.row();
        if (p0 === 0) r.cells.fill(' ', x);
        else if (p0 === 1) r.cells.fill(' ', 0, x + 1);
        else {
          r.cells.fill(' ');
          r.wrapped = false;
        }
        this.cx = x;
        break;
      }
      case 'J': {
        if (p0 === 3) {
          this.rows.splice(0, this.top);
          break;
        }
        const from = p0 === 0 ? this.cy + 1 : 0;
        const to = p0 === 1 ? this.cy : this.height;
        for (let y = from; y < to; y++) this.rows[this.top + y] = this.blank();
        if (p0 === 0) this.row().cells.fill(' ', x);
        if (p0 === 1) this.row().cells.fill(' ', 0, x + 1);
        break;
      }
      default:
        break; // colours and the rest do not change the text
    }
  }

  /** New size; soft-wrapped lines are joined and wrapped again, and the cursor stays on its character. */
  resize(cols: number, height: number): void {
    const absCursor = this.top + this.cy;
    // Logical lines: a row and the rows wrapped after it.
    const logical: { clusters: string[]; cursorAt?: number }[] = [];
    let cells: string[] = [];
    let cursorAt: number | undefined;
    const finish = (last: boolean) => {
      let n = cells.length;
      if (last) while (n > 0 && cells[n - 1] === ' ') n--;
      const clusters = cells.slice(0, n).filter((c) => c !== '');
      logical.push(cursorAt === undefined ? { clusters } : { clusters, cursorAt });
      cells = [];
      cursorAt = undefined;
    };
    this.rows.forEach((r, i) => {
      if (i > 0 && !r.wrapped) finish(true);
      if (i === absCursor)
        cursorAt = cells.filter((c) => c !== '').length + r.cells.slice(0, Math.min(this.cx, this.cols)).filter((c) => c !== '').length;
      cells.push(...r.cells);
    });
    finish(true);
    this.cols = cols;
    this.height = height;
    const rows: Row[] = [];
    let cur = { y: 0, x: 0 };
    for (const line of logical) {
      let r = this.blank();
      let x = 0;
      let count = 0;
      const place = () => {
        if (line.cursorAt === count) cur = { y: rows.length, x };
      };
      for (const g of line.clusters) {
        place();
        const w = Math.max(1, stringWidth(g));
        if (x + w > cols) {
          rows.push(r);
          r = this.blank(true);
          x = 0;
          if (line.cursorAt === count) cur = { y: rows.length, x };
        }
        r.cells[x] = g;
        if (w === 2 && x + 1 < cols) r.cells[x + 1] = '';
        x += w;
        count++;
      }
      if (line.cursorAt !== undefined && line.cursorAt >= count) cur = { y: rows.length, x: Math.min(x + line.cursorAt - count, cols - 1) };
      rows.push(r);
    }
    // Blank rows below the cursor go; the screen is the last `height` rows, the cursor's included.
    while (rows.length > cur.y + 1 && rows.at(-1)!.cells.every((c) => c === ' ')) rows.pop();
    while (rows.length < height) rows.push(this.blank());
    this.rows = rows;
    this.cy = cur.y - this.top;
    this.cx = cur.x;
  }

  private static text(r: Row): string {
    return r.cells.join('').trimEnd();
  }

  /** The visible screen, one string per row (trailing blanks removed). */
  screenLines(): string[] {
    return this.rows.slice(this.top).map((r) => Screen.text(r));
  }

  /** Scrollback and screen, one string per row, without the blank rows at the bottom. */
  allLines(): string[] {
    const lines = this.rows.map((r) => Screen.text(r));
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines;
  }

  /** Scrollback and screen with soft-wrapped rows joined: the lines as the program wrote them. */
  logicalLines(): string[] {
    const out: string[] = [];
    this.rows.forEach((r, i) => {
      const t = r.cells.join('');
      if (i > 0 && r.wrapped) out[out.length - 1] += t;
      else out.push(t);
    });
    const trimmed = out.map((l) => l.trimEnd());
    while (trimmed.length > 0 && trimmed.at(-1) === '') trimmed.pop();
    return trimmed;
  }

  cursor(): { x: number; y: number } {
    return { x: this.cx, y: this.cy };
  }
}
