/**
 * Where a streaming Markdown answer can be cut into finished blocks: after a blank line that is not
 * inside a fenced code block. Finished blocks move to the scrollback while the answer streams, so
 * the live area stays one paragraph long and the final render is small. Incremental: each call
 * scans only the lines completed since the last one.
 */
export class BlockSplitter {
  private scanned = 0;
  private inFence = false;
  private fenceMark = '';
  /** The last safe cut: just after a blank line outside a fence. */
  safe = 0;

  /** Feed the whole text so far; returns the current safe cut. */
  update(text: string): number {
    let nl: number;
    while ((nl = text.indexOf('\n', this.scanned)) !== -1) {
      const line = text.slice(this.scanned, nl);
      this.scanned = nl + 1;
      const fence = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        const mark = fence[1]!;
        if (!this.inFence) {
          this.inFence = true;
          this.fenceMark = mark[0]!.repeat(mark.length);
        } else if (mark[0] === this.fenceMark[0] && mark.length >= this.fenceMark.length && line.trim() === mark) {
          this.inFence = false;
        }
        continue;
      }
      if (!this.inFence && line.trim() === '') this.safe = this.scanned;
    }
    return this.safe;
  }
}
